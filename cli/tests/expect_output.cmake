# cmake -DCOMMAND="program;args" -DSTATUS=<n> [-DSTDOUT_LINES="a;;b"] [-DSTDERR_LINES="..."]
#       [-DSTDERR_THEN_HELP=ON] [-DCOMMIT_HEADER=<osvs/build_commit.h>] -P expect_output.cmake
# Passes when COMMAND exits normally with exactly STATUS and prints exactly STDOUT_LINES on stdout
# and STDERR_LINES on stderr (each line ended by a newline; a stream given no lines must stay
# empty). With STDERR_THEN_HELP, stderr goes on with exactly what `program --help` prints.
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

set(help "")
if(STDERR_THEN_HELP)
  list(GET COMMAND 0 program)
  execute_process(COMMAND ${program} --help RESULT_VARIABLE help_status OUTPUT_VARIABLE help)
  if(NOT help_status EQUAL 0)
    message(FATAL_ERROR "`${program} --help` exited with ${help_status}")
  endif()
endif()

osvs_run_command()
if(COMMIT_HEADER AND EXISTS "${COMMIT_HEADER}")
  file(STRINGS "${COMMIT_HEADER}" define REGEX "OSVS_BUILD_COMMIT")
  string(REGEX REPLACE ".*OSVS_BUILD_COMMIT \"([^\"]*)\".*" "\\1" commit "${define}")
  string(REPLACE "@COMMIT@" "${commit}" STDOUT_LINES "${STDOUT_LINES}")
endif()
osvs_lines_text("${STDOUT_LINES}" expected_out)
osvs_lines_text("${STDERR_LINES}" expected_err)
osvs_expect_text(stdout "${out}" "${expected_out}")
osvs_expect_text(stderr "${err}" "${expected_err}${help}")
message(STATUS "exited with ${status} and printed exactly what was expected")
