// osvs_attention_property_tests: `--executor=cpu|cuda` (default cpu), then GoogleTest's flags.
// RapidCheck runs with a fixed seed unless RC_PARAMS is set in the environment.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "attention_test_executor.h"
#include "osvs/testing/skip_marker.h"

int main(int argc, char** argv) {
  std::string executor = "cpu";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--executor=", 11) == 0)
      executor = argv[i] + 11;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  if (executor != "cpu" && executor != "cuda") {
    std::cerr << "osvs_attention_property_tests: unknown --executor=" << executor << "\n";
    return 2;
  }
  if (!std::getenv("RC_PARAMS")) setenv("RC_PARAMS", "seed=20261130", 0);
  osvs::test::select_attention_executor(executor);
  ::testing::InitGoogleTest(&argc, argv);
  osvs::testing::install_skip_marker();
  return RUN_ALL_TESTS();
}
