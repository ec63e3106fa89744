# cmake -DOSVS=<osvs> -DOUT=<folder> -P shard_certificate.cmake
# The determinism certificate of a sharded audit: the quick CPU audit whole, then as shards 0/2
# (--shard) and 1/2 (GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS, as a CI matrix or a job array sets
# them), merged. Passes when the merged certificate.json lists the same kernels with the same
# invariances, counts and minimal cases as the whole run's (provenance aside: a date), when each
# shard audited only its part of the registry's attention kernels, and when at least two kernels
# were certified (so the shards really split them).
file(REMOVE_RECURSE "${OUT}")
set(options audit --quick --executor cpu --kernel two_pass --combine hardened --block 32
            --no-plots --no-perf --search-rounds 1 --attention-cases 6)

function(run_osvs label)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${label} exited with ${status}:\n${out}\n${err}")
  endif()
endfunction()

# The certificate of a report folder without its provenance, and its kernels' count.
function(read_certificate dir out_json out_count)
  file(READ "${dir}/certificate.json" json)
  string(JSON json REMOVE "${json}" provenance)
  string(JSON count LENGTH "${json}" kernels)
  set(${out_json} "${json}" PARENT_SCOPE)
  set(${out_count} "${count}" PARENT_SCOPE)
endfunction()

run_osvs("the whole audit" "${OSVS}" ${options} --out "${OUT}/whole")
run_osvs("shard 0/2" "${OSVS}" ${options} --shard 0/2 --out "${OUT}/s0")
run_osvs("shard 1/2" "${CMAKE_COMMAND}" -E env GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=1
         "${OSVS}" ${options} --out "${OUT}/s1")
run_osvs("the merge" "${OSVS}" audit --no-plots --merge "${OUT}/s1" "${OUT}/s0"
         --out "${OUT}/merged")

read_certificate("${OUT}/whole" whole whole_kernels)
read_certificate("${OUT}/merged" merged merged_kernels)
read_certificate("${OUT}/s0" part0 part0_kernels)
read_certificate("${OUT}/s1" part1 part1_kernels)
if(whole_kernels LESS 2)
  message(FATAL_ERROR "the whole audit certified ${whole_kernels} kernel(s): too few to shard")
endif()
math(EXPR parts "${part0_kernels} + ${part1_kernels}")
if(NOT parts EQUAL whole_kernels OR part0_kernels EQUAL 0 OR part1_kernels EQUAL 0)
  message(FATAL_ERROR "the shards certified ${part0_kernels} and ${part1_kernels} kernels, the "
                      "whole run ${whole_kernels}: each shard must audit its part only")
endif()
if(NOT whole STREQUAL merged)
  file(WRITE "${OUT}/whole.json" "${whole}")
  file(WRITE "${OUT}/merged.json" "${merged}")
  message(FATAL_ERROR "the merged certificate differs from the whole run's: compare "
                      "${OUT}/whole.json and ${OUT}/merged.json")
endif()
message(STATUS "merged certificate of ${merged_kernels} kernels equals the whole run's "
               "(${part0_kernels} + ${part1_kernels} from the shards)")
