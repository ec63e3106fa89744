// main() of osvs's GoogleTest binaries: GoogleTest's own plus the skip marker (skip_marker.h).
#include <gtest/gtest.h>

#include "osvs/testing/skip_marker.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  osvs::testing::install_skip_marker();
  return RUN_ALL_TESTS();
}
