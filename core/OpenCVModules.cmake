# OpenCV's core, imgproc and imgcodecs, found module by module: Debian ships OpenCVConfig.cmake only
# in the libopencv-dev meta-package (which drags in every module). Sets OPENCV_INCLUDE_DIR and
# OpenCV_LIBS. Included by core/CMakeLists.txt and by the fuzz project (tests/fuzz), which links
# the same modules.
find_path(OPENCV_INCLUDE_DIR opencv2/core.hpp PATH_SUFFIXES opencv4 REQUIRED)
set(OpenCV_LIBS)
foreach(_m core imgproc imgcodecs)
  find_library(OPENCV_${_m}_LIB opencv_${_m} REQUIRED)
  list(APPEND OpenCV_LIBS ${OPENCV_${_m}_LIB})
endforeach()
