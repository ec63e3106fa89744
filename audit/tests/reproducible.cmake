# cmake -DOSVS=<osvs> -DCOMPARE=<osvs_audit_report_compare> -DOUT=<folder> -P reproducible.cmake
# Runs `osvs audit --quick --executor cpu` twice into OUT/first and OUT/second and passes when the
# two sets of reports are identical with their wall-clock values masked.
file(REMOVE_RECURSE "${OUT}")
foreach(run first second)
  execute_process(COMMAND "${OSVS}" audit --quick --executor cpu --no-plots --out "${OUT}/${run}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "osvs audit --quick (${run} run) exited with ${status}:\n${out}\n${err}")
  endif()
endforeach()
execute_process(COMMAND "${COMPARE}" "${OUT}/first" "${OUT}/second"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "two runs of the same audit differ:\n${out}${err}")
endif()
message(STATUS "${out}")
