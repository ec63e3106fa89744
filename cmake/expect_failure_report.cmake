# cmake -DCOMMAND="program;args" -DEXPECT=<regex> [-DSTATUS=<n>] -P expect_failure_report.cmake
# Passes when COMMAND exits normally with STATUS (default 1: a test program's "a check failed", a
# gate's "it fails") and its output matches EXPECT: a failure is reported as such, never a crash
# or a silent pass.
include(${CMAKE_CURRENT_LIST_DIR}/../cli/tests/run_command.cmake)
if(NOT DEFINED STATUS)
  set(STATUS 1)
endif()
osvs_run_command()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "`${COMMAND}` failed without the expected report /${EXPECT}/:\n${out}${err}")
endif()
message(STATUS "failed as expected")
