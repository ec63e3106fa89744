// The ulp of an output type is taken in the exact value's binade: for softmax the oracle decides
// it, so an output one float below an exact 1 is half an ulp of 1 away; a log-softmax value next
// to a power of two, whose binade is not decided, takes the finer ulp (never under-reported).
#include <gtest/gtest.h>

#include <cmath>

#include "exact_outputs.h"

namespace osvs::api {
namespace {

TEST(ExactOutputs, ASoftmaxOutputTakesTheUlpOfItsExactBinade) {
  const float x[] = {3.0f};  // one element: y = 1 exactly
  const ExactOutputs e = exact_outputs(RowOp::Softmax, x, 1);
  ASSERT_EQ(e.value.size(), 1u);
  const float below_one = std::nextafter(1.0f, 0.0f);  // 1 - 2^-24
  // |1 - 2^-24 - 1| / ulp(1) = 2^-24 / 2^-23.
  EXPECT_EQ(ulp_distance_in(DType::F32, below_one, e.value[0], e.binade[0]), 0.5);
  // The same double with its binade unknown: 1 might be 1 - tiny, so the finer ulp 2^-24.
  EXPECT_EQ(ulp_distance_in(DType::F32, below_one, e.value[0]), 1.0);
  // In f16 the ulp of 1 is 2^-10: the same output is 2^-24 / 2^-10 ulps away.
  EXPECT_EQ(ulp_distance_in(DType::F16, below_one, e.value[0], e.binade[0]), 0x1p-14);
}

TEST(ExactOutputs, LogSoftmaxBinadesAreLeftUndecided) {
  const float x[] = {0.0f, -40.0f};
  const ExactOutputs e = exact_outputs(RowOp::LogSoftmax, x, 2);
  ASSERT_EQ(e.binade.size(), 2u);
  EXPECT_EQ(e.binade[0], kUnknownBinade);
  EXPECT_LT(e.value[0], 0.0);  // -e^-40, not 0
}

}  // namespace
}  // namespace osvs::api
