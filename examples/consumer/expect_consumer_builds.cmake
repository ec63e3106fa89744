# cmake -DOSVS_SOURCE=<osvs> -DWORK=<dir> [-DCUDA=ON|OFF] -P expect_consumer_builds.cmake
# The consumer project as its README says: it configures with osvs as a subdirectory (CUDA where
# CUDA=ON: its own kernel library compiled for the architectures it set, linked to the CUDA
# toolkit osvs found), its ctest lists its own tests and none of osvs's, its test programs build,
# and they pass (the CUDA kernel's skips where no device is usable, with its reason).
file(REMOVE_RECURSE ${WORK})
if(CUDA)
  set(cuda_flag "")
  set(expected my_softmax_test my_cuda_softmax_test)
else()
  set(cuda_flag -DMY_KERNELS_CUDA=OFF)  # as on a machine without nvcc
  set(expected my_softmax_test)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${OSVS_SOURCE}/examples/consumer -B ${WORK}
                        -DOSVS_SOURCE=${OSVS_SOURCE} -DCMAKE_BUILD_TYPE=Release ${cuda_flag}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer project does not configure:\n${out}\n${err}")
endif()
# The tests ctest would run: every add_test of the generated CTestTestfile.cmake files.
file(GLOB_RECURSE testfiles ${WORK}/CTestTestfile.cmake)
set(tests "")
foreach(f ${testfiles})
  file(STRINGS ${f} lines REGEX "^add_test\\(")
  foreach(line ${lines})
    string(REGEX REPLACE "^add_test\\((\\[=\\[)?([^] ]*).*" "\\2" name "${line}")
    list(APPEND tests ${name})
  endforeach()
endforeach()
list(SORT tests)
list(SORT expected)
if(NOT tests STREQUAL expected)
  message(FATAL_ERROR "the consumer's ctest should list [${expected}] alone, lists [${tests}]")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK} --target ${expected} -j 2
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer's test programs do not build:\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK} --output-on-failure
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer's tests fail:\n${out}\n${err}")
endif()
message(STATUS "consumer configured, built and tested: ${tests}")
