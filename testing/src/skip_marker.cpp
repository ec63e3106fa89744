#include "osvs/testing/skip_marker.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace osvs::testing {
namespace {

class SkipMarker : public ::testing::EmptyTestEventListener {
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override {
    if (unit.test_to_run_count() > 0 && unit.successful_test_count() == 0 &&
        unit.failed_test_count() == 0 && unit.skipped_test_count() > 0)
      std::printf("%s\n", kAllSkippedMarker);
  }
};

}  // namespace

void install_skip_marker() {
  ::testing::UnitTest::GetInstance()->listeners().Append(new SkipMarker);
}

}  // namespace osvs::testing
