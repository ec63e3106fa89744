# cmake -DOSVS=<osvs> -DCOMPARE=<osvs_audit_report_compare> -DOUT=<folder> -P shard_merge.cmake
# The quick CPU audit (one kernel, one block, to stay short) whole, then as shards 0/3 (--shard),
# 1/3 and 2/3 (GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS, as ctest's sharding sets them), merged
# twice. Passes when the merged sweep equals the whole run's (every configuration's numbers), the
# two merges are the same reports with timing masked, and merges of shards {0, 2} and {0, 0, 1, 2}
# are refused naming the problem.
file(REMOVE_RECURSE "${OUT}")
set(options audit --quick --executor cpu --kernel two_pass --combine hardened --block 32
            --no-plots --no-attention --no-perf --search-rounds 20)

function(run_osvs label)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${label} exited with ${status}:\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run_osvs("the whole audit" "${OSVS}" ${options} --out "${OUT}/whole")
run_osvs("shard 0/3" "${OSVS}" ${options} --shard 0/3 --out "${OUT}/s0")
foreach(i 1 2)
  run_osvs("shard ${i}/3" "${CMAKE_COMMAND}" -E env GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=${i}
           "${OSVS}" ${options} --out "${OUT}/s${i}")
  file(READ "${OUT}/s${i}/audit.md" md)
  if(NOT md MATCHES "Shard ${i} of 3")
    message(FATAL_ERROR "shard ${i}'s audit.md does not say it is shard ${i} of 3")
  endif()
endforeach()
foreach(m merged merged_again)
  run_osvs("merge (${m})" "${OSVS}" audit --no-plots --merge "${OUT}/s2" "${OUT}/s0" "${OUT}/s1"
           --out "${OUT}/${m}")
endforeach()
run_osvs("the sweeps of the whole and the merged audit" "${COMPARE}" --sweep "${OUT}/whole"
         "${OUT}/merged")
message(STATUS "${last_output}")
run_osvs("two merges of the same shards" "${COMPARE}" "${OUT}/merged" "${OUT}/merged_again")
message(STATUS "${last_output}")

foreach(bad "s0;s2" "s0;s0;s1;s2")
  set(dirs)
  foreach(d IN LISTS bad)
    list(APPEND dirs "${OUT}/${d}")
  endforeach()
  execute_process(COMMAND "${OSVS}" audit --no-plots --merge ${dirs} --out "${OUT}/refused"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(status EQUAL 0 OR NOT "${out}${err}" MATCHES "shard 1/3 is missing|shard 0/3 is given twice")
    message(FATAL_ERROR "merging ${bad} was not refused as it should be (${status}):\n${out}${err}")
  endif()
endforeach()
