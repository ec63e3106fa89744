# Project-wide compile settings and the helpers every folder uses.

# The CPU model reproduces the device's rounding step by step, so the host compiler must never fuse
# a*b+c on its own: every contraction the model needs is written out (kernels/fp_model.h).
add_library(osvs_options INTERFACE)
target_compile_options(osvs_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off -Wall -Wextra>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffp-contract=off --fmad=$<IF:$<BOOL:${OSVS_CUDA_FMAD}>,true,false>>)
target_compile_definitions(osvs_options INTERFACE
  OSVS_MODEL_FMAD=$<BOOL:${OSVS_CUDA_FMAD}>
  $<$<BOOL:${OSVS_PORTABLE_EXP}>:OSVS_PORTABLE_EXP>
  $<$<BOOL:${OSVS_WITH_CUDA}>:OSVS_WITH_CUDA>)
if(OSVS_STATIC_DEPS)
  target_link_options(osvs_options INTERFACE -static-libstdc++ -static-libgcc)
endif()

# osvs_add_test(NAME <ctest name> COMMAND <target> [ARGS ...] LABELS ...)
# Registers a GoogleTest binary with ctest: XML results under <build>/test-results; a binary whose
# every test called GTEST_SKIP prints the marker of testing/skip_marker.h and ctest reports it as
# skipped (the reason is in the log; one failure and it is a failure); sharding via the usual
# GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX environment.
function(osvs_add_test)
  cmake_parse_arguments(T "" "NAME;COMMAND;TIMEOUT" "ARGS;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 900)
  endif()
  add_test(NAME ${T_NAME}
           COMMAND $<TARGET_FILE:${T_COMMAND}> ${T_ARGS}
                   --gtest_output=xml:${CMAKE_BINARY_DIR}/test-results/${T_NAME}.xml
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
                       SKIP_REGULAR_EXPRESSION "every test of this binary was skipped"
                       ENVIRONMENT "OSVS_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()
