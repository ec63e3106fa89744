#include "osvs/testing/executor_main.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

#include "osvs/testing/rc_params.h"
#include "osvs/testing/skip_marker.h"

namespace osvs::testing {

int run_with_executor(int argc, char** argv, const char* program, const char* default_rc_params,
                      void (*select)(const std::string& executor)) {
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
    std::cerr << program << ": unknown --executor=" << executor << " (use cpu or cuda)\n";
    return 2;
  }
  use_rc_params_unless_set(default_rc_params);
  select(executor);
  ::testing::InitGoogleTest(&argc, argv);
  install_skip_marker();
  return RUN_ALL_TESTS();
}

}  // namespace osvs::testing
