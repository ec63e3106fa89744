# Project-wide compile settings and the helpers every folder uses.

# The CPU model reproduces the device's rounding step by step, so the host compiler must never fuse
# a*b+c on its own: every contraction the model needs is written out (kernels/fp_model.h).
add_library(osvs_options INTERFACE)
target_compile_options(osvs_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off -Wall -Wextra>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffp-contract=off --fmad=$<IF:$<BOOL:${OSVS_CUDA_FMAD}>,true,false>>)
target_compile_definitions(osvs_options INTERFACE
  OSVS_MODEL_FMAD=$<BOOL:${OSVS_CUDA_FMAD}>
  $<$<BOOL:${OSVS_PORTABLE_EXP}>:OSVS_PORTABLE_EXP>)

# osvs_sources_see_cuda_option(<source>...)
# Defines OSVS_WITH_CUDA (in builds with CUDA) for the few sources that branch on it, in the
# calling folder. Only there: every other source then compiles with the same command line with
# CUDA and without, so the Python package's build (no CUDA) hits the Release build's objects in
# ccache instead of compiling osvs a second time (CI time).
function(osvs_sources_see_cuda_option)
  if(OSVS_WITH_CUDA)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_DEFINITIONS OSVS_WITH_CUDA)
  endif()
endfunction()
# osvs_drivers_and_reports([SOURCES <source>...])
# Release builds compile the code that drives laws and writes reports at -O1 instead of -O3: the
# test programs, the testbed's generators and shrinkers, the `osvs` command line's parsing, the
# mutation run's driver and reports. These files instantiate RapidCheck, GoogleTest,
# nlohmann/json, fmt and CLI11 templates by the thousand; at -O1 the heaviest compile in 12-45 %
# less time (reports/ci-time.md), while their run time is mostly spent in what they call.
# Whatever computes per element stays at -O3 in its own library (kernels, oracle, exhaustive
# checks), as does the audit (a user's release run: at -O1 its tests ran up to 1.6 times longer)
# and the test programs whose loops run every float (kernels/tests, exhaustive/tests). Without SOURCES: every C++ target the calling folder adds
# after the call; with SOURCES: those files of the calling folder.
function(osvs_drivers_and_reports)
  cmake_parse_arguments(D "" "" "SOURCES" ${ARGN})
  set(option "$<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:CXX>>:-O1>")
  if(D_SOURCES)
    set_property(SOURCE ${D_SOURCES} APPEND PROPERTY COMPILE_OPTIONS "${option}")
  else()
    set_property(DIRECTORY APPEND PROPERTY COMPILE_OPTIONS "${option}")
  endif()
endfunction()

if(OSVS_STATIC_DEPS)
  target_link_options(osvs_options INTERFACE -static-libstdc++ -static-libgcc)
endif()

# osvs_test_programs(TARGETS <target>... LABELS <label>...)
# Records the programs a test with these labels runs, so that a build can make exactly the
# programs its tests need (the presets asan and fuzz): osvs_add_test records its own; a plain
# add_test must say what it runs. At the end of the configuration two targets collect them:
#   osvs_host_test_programs   every program of a test the asan test preset runs: a test with none
#                             of the labels below (a GPU test, a formal proof, a slow sweep or a
#                             consumer build runs in Release only, so the sanitized build leaves
#                             its program out unless another test runs it)
#   osvs_fuzz_test_programs   every program of a test with the fuzz label
# The list equals the asan test preset's label filter (CMakePresets.json): keep the two together.
set(OSVS_RELEASE_ONLY_TEST_LABELS gpu slow consumer formal)
function(osvs_test_programs)
  cmake_parse_arguments(P "" "" "TARGETS;LABELS" ${ARGN})
  set(groups host)
  foreach(label IN LISTS OSVS_RELEASE_ONLY_TEST_LABELS)
    if(label IN_LIST P_LABELS)
      set(groups)
    endif()
  endforeach()
  if("fuzz" IN_LIST P_LABELS)
    list(APPEND groups fuzz)
  endif()
  foreach(group IN LISTS groups)
    set_property(GLOBAL APPEND PROPERTY OSVS_${group}_TEST_PROGRAMS ${P_TARGETS})
  endforeach()
endfunction()

function(osvs_add_test_program_targets)
  foreach(group host fuzz)
    get_property(programs GLOBAL PROPERTY OSVS_${group}_TEST_PROGRAMS)
    add_custom_target(osvs_${group}_test_programs)
    foreach(program IN LISTS programs)
      if(TARGET ${program})
        add_dependencies(osvs_${group}_test_programs ${program})
      endif()
    endforeach()
  endforeach()
endfunction()
cmake_language(DEFER CALL osvs_add_test_program_targets)  # after every folder has added its tests

# osvs_add_test(NAME <ctest name> COMMAND <target> [ARGS ...] LABELS ... [TIMEOUT s] [COST s])
# Registers a GoogleTest binary with ctest: XML results under <build>/test-results; a binary whose
# every test called GTEST_SKIP prints the marker of testing/skip_marker.h and ctest reports it as
# skipped (the reason is in the log; one failure and it is a failure); sharding via the usual
# GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX environment. A test reads committed files through
# OSVS_SOURCE_DIR (e.g. reports/regressions) and writes what it produces under OSVS_BUILD_DIR,
# never into the source tree. COST is the test's seconds on one core of a CI machine: ctest -j
# starts the costliest first, so that on a fresh machine (no timings of an earlier run) a long
# test does not start last and run alone.
function(osvs_add_test)
  cmake_parse_arguments(T "" "NAME;COMMAND;TIMEOUT;COST" "ARGS;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 900)
  endif()
  if(NOT T_COST)
    set(T_COST 0)
  endif()
  add_test(NAME ${T_NAME}
           COMMAND $<TARGET_FILE:${T_COMMAND}> ${T_ARGS}
                   --gtest_output=xml:${CMAKE_BINARY_DIR}/test-results/${T_NAME}.xml
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  osvs_test_programs(TARGETS ${T_COMMAND} LABELS ${T_LABELS})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT} COST ${T_COST}
                       SKIP_REGULAR_EXPRESSION "every test of this binary was skipped"
                       ENVIRONMENT
                       "OSVS_SOURCE_DIR=${PROJECT_SOURCE_DIR};OSVS_BUILD_DIR=${CMAKE_BINARY_DIR}")
endfunction()

# osvs_add_failure_report_test(NAME <ctest name> COMMAND <target> [ARGS ...] EXPECT <regex>
#                              LABELS ... [TIMEOUT <s>])
# A planted failure: passes when the program exits 1 with output matching EXPECT
# (cmake/expect_failure_report.cmake), so that a defect is reported as a failure, never a crash
# or a silent pass.
function(osvs_add_failure_report_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "" "NAME;COMMAND;EXPECT;TIMEOUT" "ARGS;LABELS")
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  string(JOIN ";" command "$<TARGET_FILE:${T_COMMAND}>" ${T_ARGS})
  add_test(NAME ${T_NAME}
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" "-DEXPECT=${T_EXPECT}"
                   -P ${PROJECT_SOURCE_DIR}/cmake/expect_failure_report.cmake)
  osvs_test_programs(TARGETS ${T_COMMAND} LABELS ${T_LABELS})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT})
endfunction()

# osvs_add_benchmark(<target> SOURCES <source>... LIBRARIES <library>...)
# A Google Benchmark program (run by hand, not by ctest), added where the benchmark library is
# found; the caller says when it is wanted (OSVS_BUILD_BENCH).
function(osvs_add_benchmark target)
  cmake_parse_arguments(B "" "" "SOURCES;LIBRARIES" ${ARGN})
  find_package(benchmark QUIET)
  if(benchmark_FOUND)
    add_executable(${target} ${B_SOURCES})
    target_link_libraries(${target} PRIVATE ${B_LIBRARIES} benchmark::benchmark)
  endif()
endfunction()

# osvs_build_commit: the header osvs/build_commit.h with OSVS_BUILD_COMMIT, the commit the sources
# were at when the build ran. Regenerated by every build (not only when CMake configures), so a
# build folder reused across commits never stamps its results with an old commit; OSVS_COMMIT in
# the environment still overrides it at run time where the code reads it: osvs/build_stamp.h
# (cmake/include) reads both, and the time of a result, for every folder that stamps one.
set(OSVS_BUILD_COMMIT_HEADER ${CMAKE_BINARY_DIR}/generated/osvs/build_commit.h)
add_custom_target(osvs_build_commit_header
  COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR} -DOUT=${OSVS_BUILD_COMMIT_HEADER}
          -P ${PROJECT_SOURCE_DIR}/cmake/write_build_commit.cmake
  BYPRODUCTS ${OSVS_BUILD_COMMIT_HEADER}
  COMMENT "Stamping the build with the source commit"
  VERBATIM)
add_library(osvs_build_commit STATIC ${CMAKE_CURRENT_LIST_DIR}/src/build_stamp.cpp)
target_include_directories(osvs_build_commit PUBLIC ${CMAKE_CURRENT_LIST_DIR}/include
                                             PRIVATE ${CMAKE_BINARY_DIR}/generated)
set_target_properties(osvs_build_commit PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_dependencies(osvs_build_commit osvs_build_commit_header)
