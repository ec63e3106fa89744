# cmake -DCXX=<compiler> -DSOURCE=<source tree> -DGENERATED=<build>/generated -DWORK=<dir>
#       -P expect_planted_exp_figure.cmake
# Plants CUDA_EXPF_MAX_ULP = 0.5 into a copy of exp.h and compiles the build check
# (kernels/src/verified_exp_figures.cpp) against it: it must fail, quoting the counterexample of
# the committed measurement. The unplanted exp.h must compile, so the failure is the planting's.
set(exp_h ${SOURCE}/kernels/include/osvs/kernels/exp.h)
file(READ ${exp_h} text)
string(REPLACE "CUDA_EXPF_MAX_ULP = 2.0;" "CUDA_EXPF_MAX_ULP = 0.5;" planted "${text}")
if(planted STREQUAL text)
  message(FATAL_ERROR "exp.h no longer declares `CUDA_EXPF_MAX_ULP = 2.0;`: update this test")
endif()
file(WRITE ${WORK}/osvs/kernels/exp.h "${planted}")
set(check ${SOURCE}/kernels/src/verified_exp_figures.cpp)
set(flags -std=c++20 -fsyntax-only -I${SOURCE}/kernels/include -I${GENERATED})
execute_process(COMMAND ${CXX} ${flags} ${check} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the build check does not compile as committed:\n${out}${err}")
endif()
execute_process(COMMAND ${CXX} -I${WORK} ${flags} ${check} RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0)
  message(FATAL_ERROR "CUDA_EXPF_MAX_ULP = 0.5 compiled: the build check missed it")
endif()
if(NOT "${out}${err}" MATCHES "cuda_expf exceeds the declared CUDA_EXPF_MAX_ULP; counterexample: cuda_expf\\(-?0x[^)]+\\) = ")
  message(FATAL_ERROR "the planted figure failed without naming the counterexample:\n${out}${err}")
endif()
string(REGEX MATCH "counterexample: [^\"]*" quoted "${out}${err}")
message(STATUS "failed as expected: ${quoted}")
