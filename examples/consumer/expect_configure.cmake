# cmake -DOSVS_SOURCE=<osvs> -DWORK=<dir> -P expect_configure.cmake
# The consumer project configures with osvs as a subdirectory, and its ctest lists its own test
# and none of osvs's.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${OSVS_SOURCE}/examples/consumer -B ${WORK}
                        -DOSVS_SOURCE=${OSVS_SOURCE} -DOSVS_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer project does not configure:\n${out}\n${err}")
endif()
# The tests ctest would run: every add_test of the generated CTestTestfile.cmake files.
file(GLOB_RECURSE testfiles ${WORK}/CTestTestfile.cmake)
set(tests "")
foreach(f ${testfiles})
  file(STRINGS ${f} lines REGEX "^add_test\\(")
  list(APPEND tests ${lines})
endforeach()
list(LENGTH tests count)
if(NOT count EQUAL 1 OR NOT tests MATCHES "my_softmax_test")
  message(FATAL_ERROR "the consumer should have my_softmax_test alone, has ${count}:\n${tests}")
endif()
message(STATUS "consumer configured; its ctest lists my_softmax_test alone")
