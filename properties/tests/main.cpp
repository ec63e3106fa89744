// osvs_property_tests: `--executor=cpu|cuda` (default cpu), then the usual GoogleTest flags.
// RapidCheck runs with a fixed seed unless RC_PARAMS is set in the environment.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "osvs/testing/skip_marker.h"
#include "test_executor.h"

namespace {
/// The default RapidCheck parameters: a fixed seed, so that CI is deterministic.
constexpr const char* kDefaultRcParams = "seed=20240605";
}  // namespace

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
    std::cerr << "osvs_property_tests: unknown --executor=" << executor << " (use cpu or cuda)\n";
    return 2;
  }
  if (!std::getenv("RC_PARAMS")) setenv("RC_PARAMS", kDefaultRcParams, 0);
  osvs::test::select_executor(executor);
  ::testing::InitGoogleTest(&argc, argv);
  osvs::testing::install_skip_marker();
  return RUN_ALL_TESTS();
}
