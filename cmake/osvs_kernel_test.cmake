# The two CMake calls of the public API (api/README.md, README "Test your own kernel").
#
# osvs_add_kernel_test(NAME <name> SOURCES <adapters...> [LIBRARIES <libs...>]
#                      [LABELS <labels...>] [REGRESSIONS <dir>] [TIMEOUT <seconds>])
#   Builds <name>, a GoogleTest program running every law on every kernel the adapters register,
#   and adds it to ctest (labels default to "cpu"; give "gpu" for device kernels). Saved cases
#   under REGRESSIONS (default <adapter folder>/osvs-regressions) are replayed first; new
#   failures are written under the build folder (<build>/osvs-regressions).
#
# osvs_add_kernel_plugin(NAME <name> SOURCES <adapters...> [LIBRARIES <libs...>])
#   Builds lib<name>.so from the same adapters, for `osvs audit --plugin lib<name>.so`.
#
# Adapters that nvcc compiles include osvs's headers, which are C++20: both calls compile them
# as C++20 (osvs_cuda_cxx20 tells CMake 3.25 nvcc's flag for it, in the calling directory).

# CMake 3.25 does not know nvcc's flag for C++20 (nvcc 12 and later take -std=c++20): sets it in
# the scope of the caller, and the standard on `target`.
macro(osvs_cuda_cxx20 target)
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20" PARENT_SCOPE)
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20" PARENT_SCOPE)
  endif()
  set_target_properties(${target} PROPERTIES CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON)
endmacro()

# The arguments of `caller` (one of the two calls) as K_NAME, K_SOURCES, ... in its scope, for the
# one-value and multi-value keywords named; NAME and SOURCES are required.
macro(osvs_kernel_target_arguments caller one_value multi_value)
  cmake_parse_arguments(K "" "${one_value}" "${multi_value}" ${ARGN})
  if(NOT K_NAME OR NOT K_SOURCES)
    message(FATAL_ERROR "${caller}: NAME and SOURCES are required")
  endif()
endmacro()

function(osvs_add_kernel_test)
  osvs_kernel_target_arguments(osvs_add_kernel_test "NAME;REGRESSIONS;TIMEOUT"
                               "SOURCES;LIBRARIES;LABELS" ${ARGN})
  if(NOT K_LABELS)
    set(K_LABELS cpu)
  endif()
  if(NOT K_TIMEOUT)
    set(K_TIMEOUT 600)
  endif()
  if(NOT K_REGRESSIONS)
    set(K_REGRESSIONS ${CMAKE_CURRENT_SOURCE_DIR}/osvs-regressions)
  endif()
  add_executable(${K_NAME} ${K_SOURCES})
  target_link_libraries(${K_NAME} PRIVATE osvs_testbed_main osvs_testbed ${K_LIBRARIES})
  osvs_cuda_cxx20(${K_NAME})
  if(COMMAND osvs_test_programs)  # inside osvs's own tree: the asan preset builds it too
    osvs_test_programs(TARGETS ${K_NAME} LABELS ${K_LABELS})
  endif()
  add_test(NAME ${K_NAME}
           COMMAND $<TARGET_FILE:${K_NAME}>
                   --gtest_output=xml:${CMAKE_BINARY_DIR}/test-results/${K_NAME}.xml
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(${K_NAME} PROPERTIES
    LABELS "${K_LABELS}" TIMEOUT ${K_TIMEOUT}
    SKIP_REGULAR_EXPRESSION "every test of this binary was skipped"
    ENVIRONMENT "OSVS_REPLAY_DIR=${K_REGRESSIONS};OSVS_REGRESSION_DIR=${CMAKE_CURRENT_BINARY_DIR}/osvs-regressions")
endfunction()

function(osvs_add_kernel_plugin)
  osvs_kernel_target_arguments(osvs_add_kernel_plugin "NAME" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${K_NAME} MODULE ${K_SOURCES})
  target_link_libraries(${K_NAME} PRIVATE osvs_plugin_entry osvs_api_registry ${K_LIBRARIES})
  osvs_cuda_cxx20(${K_NAME})
  # Only the entry point is exported: the plugin's copy of the registry never meets the loader's.
  set_target_properties(${K_NAME} PROPERTIES CXX_VISIBILITY_PRESET hidden
                                             CUDA_VISIBILITY_PRESET hidden
                                             POSITION_INDEPENDENT_CODE ON)
  target_link_options(${K_NAME} PRIVATE -Wl,--exclude-libs,ALL)
endfunction()
