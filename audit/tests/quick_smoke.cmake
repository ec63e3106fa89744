# cmake -DOSVS=<osvs binary> -DOUT=<folder> -P quick_smoke.cmake
# Runs `osvs audit --quick --executor cpu` into OUT and passes when it exits 0 and wrote a report
# whose audit.json says the release passes.
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${OSVS}" audit --quick --executor cpu --out "${OUT}"
                        --regression-dir "${OUT}/regressions"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "osvs audit --quick exited with ${status}:\n${out}\n${err}")
endif()
foreach(file audit.json audit.md worst_cases.json)
  if(NOT EXISTS "${OUT}/${file}")
    message(FATAL_ERROR "osvs audit --quick did not write ${file}:\n${out}")
  endif()
endforeach()
file(READ "${OUT}/audit.json" json)
string(JSON passes GET "${json}" summary release_passes)
if(NOT passes)
  message(FATAL_ERROR "audit.json says the release fails:\n${out}")
endif()
message(STATUS "${out}")
