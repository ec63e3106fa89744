// osvs_attention_property_tests: `--executor=cpu|cuda` (default cpu), then GoogleTest's flags.
// RapidCheck runs with a fixed seed unless RC_PARAMS is set in the environment.
#include "attention_test_executor.h"
#include "osvs/testing/executor_main.h"

int main(int argc, char** argv) {
  return osvs::testing::run_with_executor(argc, argv, "osvs_attention_property_tests",
                                          "seed=20261130", &osvs::test::select_attention_executor);
}
