# The core files the fuzz targets compile instrumented (tests/fuzz/CMakeLists.txt): the loaders and
# parsers (the saved-model reader, models/, included). The fuzzers link these objects in front of a normal build's liborbitcore.a, whose copies
# of the same files are then never pulled in; so with unity builds (ORBIT_FAST_BUILD) these files are
# batched only with each other (core/CMakeLists.txt), never in one object with a file the fuzzers take
# from the archive (that object would define the parsers twice).
file(GLOB ORBIT_FUZZED_CORE_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_LIST_DIR}/src/data/*.cpp ${CMAKE_CURRENT_LIST_DIR}/src/util/*.cpp
     ${CMAKE_CURRENT_LIST_DIR}/src/models/*.cpp)
list(APPEND ORBIT_FUZZED_CORE_SOURCES
     ${CMAKE_CURRENT_LIST_DIR}/src/groups/Group.cpp
     ${CMAKE_CURRENT_LIST_DIR}/src/distributions/DistributionSupport.cpp
     ${CMAKE_CURRENT_LIST_DIR}/src/kernels/BaseKernel.cpp
     ${CMAKE_CURRENT_LIST_DIR}/src/features/MakeFeatureMap.cpp)
