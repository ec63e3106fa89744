# cmake -DCOMMAND="program;args" -DEXPECT=<regex> -P expect_testbed_failure.cmake
# Passes when the testbed program exits normally with status 1 (GoogleTest's "a test failed") and
# its output matches EXPECT: a failing kernel is reported, never a crash or a silent pass.
include(${CMAKE_CURRENT_LIST_DIR}/../../cli/tests/run_command.cmake)
set(STATUS 1)
osvs_run_command()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "`${COMMAND}` failed without the expected report /${EXPECT}/:\n${out}${err}")
endif()
message(STATUS "failed as expected")
