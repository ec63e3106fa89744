# cmake -DOSVS=<osvs> -DPLUGIN=<lib> -DOUT=<dir> -P expect_plugin_audit.cmake
# The audit of the misbehaving plugin: exit status 1, and the report names each failure while the
# correct kernel still passes.
include(${CMAKE_CURRENT_LIST_DIR}/../../cli/tests/run_command.cmake)
file(REMOVE_RECURSE ${OUT})
set(COMMAND ${OSVS} audit --plugin ${PLUGIN} --quick --out ${OUT})
set(STATUS 1)
osvs_run_command()
file(READ ${OUT}/audit.md report)
foreach(expected
    "Release gate: fails"
    # a crash is a signal, or under a sanitizer, which catches SIGSEGV itself, an exit without report
    "bad.crashes \\|[^\n]*\\*\\*failed\\*\\*: (crashed \\(signal 11|exited with status [0-9]+ without a report)"
    "bad.throws \\|[^\n]*\\*\\*failed\\*\\*: kernel 'bad.throws' threw: workspace too small"
    "bad.writes_past_the_end \\|[^\n]*\\*\\*failed\\*\\*: kernel 'bad.writes_past_the_end' wrote past the end"
    "bad.no_contract \\|[^\n]*\\*\\*no contract declared\\*\\*"
    "good.softmax \\|[^\n]*\\*\\*passes\\*\\*"
    "bad.merge_keeps_a \\| merge \\|[^\n]*\\*\\*violations\\*\\*"
    "\\| commutativity \\| fails \\| ")
  if(NOT report MATCHES "${expected}")
    message(FATAL_ERROR "the report lacks /${expected}/:\n${report}")
  endif()
endforeach()
message(STATUS "every failure reported, the correct kernel passed, the gate failed")
