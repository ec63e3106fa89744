// osvs_property_tests: `--executor=cpu|cuda` (default cpu), then the usual GoogleTest flags.
// RapidCheck runs with a fixed seed and OSVS_PROPERTY_CASES cases a law (CMake's cache variable,
// 100 unless a preset says otherwise) unless RC_PARAMS is set in the environment.
#include <string>

#include "osvs/testing/executor_main.h"
#include "test_executor.h"

int main(int argc, char** argv) {
  const std::string params = "seed=20240605 max_success=" + std::to_string(OSVS_PROPERTY_CASES);
  return osvs::testing::run_with_executor(argc, argv, "osvs_property_tests", params.c_str(),
                                          &osvs::test::select_executor);
}
