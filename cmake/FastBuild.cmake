# A faster first build (issue 30, item 4): unity builds. A library's files are compiled a few at a
# time in one translation unit each (CMake's UNITY_BUILD), so the headers they share are parsed, and
# the inline code they share (Eigen's products and expressions above all, Qt's containers) is
# instantiated and optimised, once per batch instead of once per file (the times: docs/results.md,
# "A faster first build"). ORBIT_FAST_BUILD=OFF compiles file by file as before. Both must build: a file must include
# what it uses (only the OFF build shows a missing include), and the file-local names (anonymous
# namespace, static) of the files of one folder must differ (only the ON build shows a clash).
#
# No precompiled headers: measured on the 2-core machine with GCC 12 at -O3, a precompiled Eigen and
# standard library saved 0.7-1.4 s of a core file's 1.3-7 s, and precompiled Qt Widgets/Charts nothing
# measurable of a window file's 7.5 s (optimising, not parsing, is where the time goes); and with a
# precompiled header GCC 12 reports -Wstringop-overflow and -Warray-bounds inside libstdc++'s inlined
# std::string::_M_replace (util/SafeText.cpp, groups/PermutationGroup.cpp, cli/GroupOptions.cpp, ...)
# that it does not report when the same headers are included as text, which -Werror (CI) turns into
# a failed build. Worth measuring again with GCC 13 or later.
option(ORBIT_FAST_BUILD "Unity builds (a faster first build; OFF compiles file by file)" ON)
set(ORBIT_UNITY_BATCH_SIZE 8 CACHE STRING "Files compiled together in one unity batch (ORBIT_FAST_BUILD)")

# A faster link: LLVM's lld where the compiler can use it (setup.sh installs it). The build links
# about 110 programs (a program per test suite), each against the static core and Qt: GNU ld took
# 1.9 s wall for test_ui_kernels on the 2-core machine, lld 0.4 s (gold 0.4 s, but it is no longer
# maintained). ORBIT_FAST_BUILD=OFF, or a compiler without lld, links with the system's default.
if(ORBIT_FAST_BUILD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" ORBIT_HAVE_LLD)
  if(ORBIT_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()

# orbit_unity_build(TARGET [APART file ...])
#   Compiles the target's .cpp files in unity batches: the files of one folder together, at most
#   ORBIT_UNITY_BATCH_SIZE to a batch, so an edit recompiles only its batch. A file with compile
#   options, definitions or include folders of its own is compiled on its own. Files listed after
#   APART are batched only with each other (core/FuzzedSources.cmake says why). Call it after the
#   target's per-file properties are set. Does nothing when ORBIT_FAST_BUILD is off.
function(orbit_unity_build target)
  if(NOT ORBIT_FAST_BUILD)
    return()
  endif()
  cmake_parse_arguments(U "" "" "APART" ${ARGN})
  get_target_property(_sources ${target} SOURCES)
  get_target_property(_target_dir ${target} SOURCE_DIR)
  foreach(_source ${_sources})
    if(NOT _source MATCHES "\\.cpp$")
      continue()
    endif()
    get_filename_component(_source ${_source} ABSOLUTE BASE_DIR ${_target_dir})
    set(_own OFF)
    foreach(_property COMPILE_OPTIONS COMPILE_DEFINITIONS COMPILE_FLAGS INCLUDE_DIRECTORIES)
      get_source_file_property(_value ${_source} ${_property})
      if(_value)
        set(_own ON)
      endif()
    endforeach()
    if(_own)
      set_source_files_properties(${_source} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
      continue()
    endif()
    # The batch: the folder relative to the target's, then a running number within that folder.
    get_filename_component(_folder ${_source} DIRECTORY)
    file(RELATIVE_PATH _group ${_target_dir} ${_folder})
    string(MAKE_C_IDENTIFIER "${target}_${_group}" _group)
    if(_source IN_LIST U_APART)
      string(APPEND _group "_apart")
    endif()
    if(NOT DEFINED _count_${_group})
      set(_count_${_group} 0)
    endif()
    math(EXPR _batch "${_count_${_group}} / ${ORBIT_UNITY_BATCH_SIZE}")
    math(EXPR _count_${_group} "${_count_${_group}} + 1")
    set_source_files_properties(${_source} PROPERTIES UNITY_GROUP "${_group}_${_batch}")
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()

# orbit_lightly_optimised(TARGET ...)
#   -O2 instead of the Release build's -O3 for code that spends its time in Qt, in the core's calls
#   or in parsing and printing, not in loops of its own: the window's state, widgets and panels, the
#   command line, the two programs. -O3 mostly adds work to the optimiser (inlining, unrolling,
#   loop versioning) for loops this code does not have; measured on a window batch and a command-line
#   batch, 10-15 % less compile time. The core, and ui/render (colour maps over every pixel of a
#   matrix), keep -O3. Does nothing when ORBIT_FAST_BUILD is off.
function(orbit_lightly_optimised)
  if(NOT ORBIT_FAST_BUILD)
    return()
  endif()
  foreach(_target ${ARGN})
    target_compile_options(${_target} PRIVATE $<$<CONFIG:Release>:-O2>)
  endforeach()
endfunction()
