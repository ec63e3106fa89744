# Shared by the cli checks: runs COMMAND (a list: program and arguments) and stops the check
# unless it exits normally with exactly STATUS. Sets `out` and `err` to what it printed.
# Each failure message starts with what went wrong, on a line of its own before the command: CMake
# wraps long message lines, and the command's path (as long as the checkout's) must never split
# the words the checks' own tests match.
macro(osvs_run_command)
  execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status MATCHES "^[0-9]+$")  # a signal or a failure to start, never an exit status
    message(FATAL_ERROR "did not exit normally (${status}):\n`${COMMAND}`\n${out}${err}")
  endif()
  if(NOT status EQUAL STATUS)
    message(FATAL_ERROR "exited with ${status}, expected ${STATUS}:\n`${COMMAND}`\n${out}${err}")
  endif()
endmacro()

# Fails the check unless `actual` is exactly `expected`; `what` names the stream.
function(osvs_expect_text what actual expected)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "printed on ${what}:\n[${actual}]\nexpected exactly:\n[${expected}]\nby `${COMMAND}`")
  endif()
endfunction()

# The text of a list of lines, each followed by a newline ("" for no lines).
function(osvs_lines_text lines out_var)
  set(text "")
  foreach(line IN LISTS lines)
    string(APPEND text "${line}\n")
  endforeach()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()
