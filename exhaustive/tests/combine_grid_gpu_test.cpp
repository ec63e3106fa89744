// The combine grid on the device (label gpu; skipped without one): the full grid, 2^32 pairs in
// each of the 49 d passes, for every registered operator that is not a mutant, held laws without
// a violation; a planted defect found by the device executor as by the CPU model.
#include <gtest/gtest.h>

#include "osvs/exhaustive/grid/grid_report.h"
#include "osvs/exhaustive/grid/grid_run.h"

namespace osvs::exhaustive::grid {
namespace {

class CombineGridGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!grid_device_present(&why)) GTEST_SKIP() << "GPU test skipped: " << why;
  }
};

TEST_F(CombineGridGpu, EveryRealOperatorHoldsItsLawsOnTheFullGrid) {
  GridSpec full;
  full.passes = kDPairs;
  for (const CombineKind k : registered_combines()) {
    if (is_mutant(k)) continue;
    const GridResult r = run_grid_on_device(k, full);
    for (const LawResult& l : r.laws)
      if (l.held) {
        EXPECT_EQ(l.violations, 0u) << to_string(k) << " " << to_string(l.law);
      }
    for (const std::string& line : counterexample_lines(r)) ADD_FAILURE() << line;
    EXPECT_EQ(r.law(Law::Commutativity).checked + r.law(Law::Commutativity).outside,
              kGridPairs * kDPairs);
    EXPECT_LE(r.worst_ratio, 1.0) << to_string(k);
    std::printf("%s: %.1f s on the device\n", to_string(k), r.seconds);
  }
}

TEST_F(CombineGridGpu, DeviceFindsThePlantedTieDefectLikeTheCpuModel) {
  GridSpec row;  // m1 = -0: every m2, every d pair
  row.first = static_cast<std::uint64_t>(float_bits(-0.0f) >> 16) << 16;
  row.count = kBf16Patterns;
  row.passes = kDPairs;
  const GridResult gpu = run_grid_on_device(CombineKind::MutantUnorderedTies, row);
  const GridResult cpu = run_grid_on_host(CombineKind::MutantUnorderedTies, row);
  const LawResult& g = gpu.law(Law::Commutativity);
  ASSERT_GT(g.violations, 0u);
  // The tie rule is exact arithmetic: both executors find the same pairs.
  EXPECT_EQ(g.violations, cpu.law(Law::Commutativity).violations);
  ASSERT_FALSE(g.first.empty());
  EXPECT_EQ(g.first.front().index, cpu.law(Law::Commutativity).first.front().index);
  EXPECT_FALSE(gpu.passed());
}

}  // namespace
}  // namespace osvs::exhaustive::grid
