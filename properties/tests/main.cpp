// osvs_property_tests: `--executor=cpu|cuda` (default cpu), then the usual GoogleTest flags.
// RapidCheck runs with a fixed seed unless RC_PARAMS is set in the environment.
#include "osvs/testing/executor_main.h"
#include "test_executor.h"

int main(int argc, char** argv) {
  return osvs::testing::run_with_executor(argc, argv, "osvs_property_tests", "seed=20240605",
                                          &osvs::test::select_executor);
}
