// main() of osvs's GoogleTest binaries: GoogleTest's own, the fixed RapidCheck seed unless
// RC_PARAMS is set (rc_params.h), and the skip marker (skip_marker.h).
#include <gtest/gtest.h>

#include "osvs/testing/rc_params.h"
#include "osvs/testing/skip_marker.h"

int main(int argc, char** argv) {
  osvs::testing::use_rc_params_unless_set();
  ::testing::InitGoogleTest(&argc, argv);
  osvs::testing::install_skip_marker();
  return RUN_ALL_TESTS();
}
