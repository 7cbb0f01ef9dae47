# Checks what an install of ew puts into a prefix (cmake -P, run by ctest):
#   -DMODE=top_level -DPREFIX=<dir>    ew installed as the top-level project (consumer.install): the
#                                      headers, LICENSE and CHANGELOG under share/doc/ew, and the CMake
#                                      package under share/cmake/ew, nothing under lib/.
#   -DMODE=vendored -DEW_SOURCE_DIR=<ew> -DWORK=<dir> -DCMAKE_CUDA_COMPILER=<nvcc>
#                                      install_gating/ (a parent vendoring ew) configured and installed
#                                      twice: by default nothing of ew lands in the parent's prefix; with
#                                      -DEW_INSTALL=ON all of it does.
cmake_minimum_required(VERSION 3.24)

set(ew_installed_files include/ew/elementwise.cuh include/ew/detail/kernel.cuh share/doc/ew/LICENSE
                       share/doc/ew/CHANGELOG.md share/cmake/ew/ewConfig.cmake share/cmake/ew/ewConfigVersion.cmake
                       share/cmake/ew/ewTargets.cmake)

function(expect_ew_files prefix present)
  foreach(f IN LISTS ew_installed_files)
    if(present AND NOT EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "expected ${prefix}/${f}")
    elseif(NOT present AND EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "ew installed ${prefix}/${f} without EW_INSTALL")
    endif()
  endforeach()
  file(GLOB_RECURSE in_lib LIST_DIRECTORIES false "${prefix}/lib*/*")
  if(in_lib)
    message(FATAL_ERROR "a header-only install put files under lib: ${in_lib}")
  endif()
endfunction()

if(MODE STREQUAL "top_level")
  expect_ew_files("${PREFIX}" TRUE)
elseif(MODE STREQUAL "vendored")
  foreach(ew_install OFF ON)
    set(build "${WORK}/build-${ew_install}")
    set(prefix "${WORK}/prefix-${ew_install}")
    file(REMOVE_RECURSE "${build}" "${prefix}")
    set(options -DEW_SOURCE_DIR=${EW_SOURCE_DIR} -DCMAKE_CUDA_COMPILER=${CMAKE_CUDA_COMPILER})
    if(ew_install)
      list(APPEND options -DEW_INSTALL=ON)
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/install_gating" -B "${build}" ${options}
                    RESULT_VARIABLE rc OUTPUT_QUIET)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "configuring install_gating (EW_INSTALL=${ew_install}) failed")
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} --install "${build}" --prefix "${prefix}" RESULT_VARIABLE rc OUTPUT_QUIET)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "installing install_gating (EW_INSTALL=${ew_install}) failed")
    endif()
    if(NOT EXISTS "${prefix}/share/parent/CMakeLists.txt")
      message(FATAL_ERROR "the parent's own file was not installed")
    endif()
    expect_ew_files("${prefix}" ${ew_install})
  endforeach()
else()
  message(FATAL_ERROR "MODE must be top_level or vendored")
endif()
message(STATUS "check_install ${MODE}: ok")
