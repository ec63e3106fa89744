// osvs's tiled attention kernels, forward and backward (host), within their contracts on sinks
// across the whole finite range they accept (attention_sink_cases.h): the forward's contract
// charges the rounding of m - z in the sink's rescale through S >= z (tiled_attention.h derives
// it; without it the forward's o errs past its contract where the sink dominates the scores by
// 40 to 87), the backward's took S >= |z| already. The cases must reach every regime of the sink:
// far above the scores with e^(m - z) normal, far below them (e^(z - m) = 0), and |z| >= 1000.
// The device entries run the same cases in tiled_attention_device_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attention_sink_cases.h"
#include "osvs/api/attention_accuracy.h"
#include "osvs/api/kind.h"
#include "tiled_attention.h"
#include "tiled_attention_backward.h"

namespace osvs::test {
namespace {

TEST(TiledAttentionSinks, CasesReachEveryRegimeOfTheSink) {
  // S (the row's score magnitude without its sink: the cases' scores are at most 8) against the
  // sink z: z - S in [40, 87] (the sink dominates, e^(m - z) normal: its argument's rounding up
  // to 2^-19 or 2^-18 relatively, 32 u or 64 u), z + S < -104 (e^(z - m) is 0), |z| >= 1000.
  int dominant = 0, vanishing = 0, huge = 0;
  for (AttentionCase c : large_sink_cases(kLargeSinkCases, kLargeSinkSeed, false)) {
    const std::vector<float> sinks = c.sinks;
    c.sinks.clear();
    const std::vector<double> s = attention_score_magnitudes(c);
    for (std::size_t row = 0; row < s.size(); ++row) {
      const double z = sinks[row % sinks.size()];
      dominant += z - s[row] >= 40 && z - s[row] <= 87 && s[row] > 0 ? 1 : 0;
      vanishing += z + s[row] < -104 ? 1 : 0;
      huge += std::fabs(z) >= 1000 ? 1 : 0;
    }
  }
  EXPECT_GE(dominant, 30);
  EXPECT_GE(vanishing, 30);
  EXPECT_GE(huge, 30);
}

TEST(TiledAttentionSinks, ForwardWithinItsContractAcrossTheSinkRange) {
  const AttentionKernel k = builtin::declare_tiled_attention(
      "osvs.test.tiled_sinks", builtin::tiled_attention<builtin::TiledAttention>);
  expect_accurate_on_every_case(k, large_sink_cases(kLargeSinkCases, kLargeSinkSeed, false));
}

TEST(TiledAttentionSinks, BackwardWithinItsContractAcrossTheSinkRange) {
  const AttentionKernel k = builtin::declare_tiled_attention_backward(
      "osvs.test.tiled_backward_sinks",
      builtin::tiled_attention_backward<builtin::TiledAttentionBackward>);
  expect_accurate_on_every_case(k, large_sink_cases(kLargeSinkCases, kLargeSinkSeed, true));
}

}  // namespace
}  // namespace osvs::test
