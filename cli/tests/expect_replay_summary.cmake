# cmake -DCOMMAND="program;replay;...;--quiet;--dir;DIR" -DSTATUS=0 -DDIR=<dir> -DHEADER=<line>
#       -P expect_replay_summary.cmake
# A quiet replay of every regression file under DIR that meets every expectation prints exactly
# HEADER, an empty line and the summary of as many files as DIR holds, every one met or skipped
# (which ones are skipped depends on the executor's arithmetic), and nothing on stderr.
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

file(GLOB_RECURSE files "${DIR}/*.json")
list(LENGTH files count)
if(count EQUAL 0)
  message(FATAL_ERROR "no regression files under ${DIR}")
endif()

osvs_run_command()
osvs_expect_text(stderr "${err}" "")
string(LENGTH "${HEADER}\n\n" header_length)
string(SUBSTRING "${out}" 0 ${header_length} head)
osvs_expect_text("stdout's first lines" "${head}" "${HEADER}\n\n")
string(SUBSTRING "${out}" ${header_length} -1 rest)
set(summary "^${count} file\\(s\\): ([0-9]+) met, 0 stale, 0 regressed, ([0-9]+) skipped, 0 errors: every expectation met\n$")
if(NOT rest MATCHES "${summary}")
  message(FATAL_ERROR "`${COMMAND}` ended its output with:\n[${rest}]\nexpected: ${summary}")
endif()
math(EXPR accounted "${CMAKE_MATCH_1} + ${CMAKE_MATCH_2}")
if(NOT accounted EQUAL count)
  message(FATAL_ERROR "${CMAKE_MATCH_1} met + ${CMAKE_MATCH_2} skipped != ${count} files")
endif()
message(STATUS "${count} files: ${CMAKE_MATCH_1} met, ${CMAKE_MATCH_2} skipped")
