# cmake -DCOMMAND="a;b;c" -DEXPECT="regex" -P expect_failure.cmake
# Passes when COMMAND exits with a non-zero status (not a crash: a signal is a failure of this
# check) and its output matches EXPECT, so that a bad invocation is known to give a clear message.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT status MATCHES "^[0-9]+$")
  message(FATAL_ERROR "`${COMMAND}` did not exit normally (${status}):\n${all}")
endif()
if(status EQUAL 0)
  message(FATAL_ERROR "`${COMMAND}` succeeded but should have failed:\n${all}")
endif()
if(NOT all MATCHES "${EXPECT}")
  message(FATAL_ERROR "`${COMMAND}` failed (${status}) without the expected message /${EXPECT}/:\n${all}")
endif()
message(STATUS "failed as expected (${status}): ${all}")
