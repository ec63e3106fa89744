// The reference of the measurement: the fast path against MPFR, the special inputs, the metric.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "osvs/exhaustive/exact_exp.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/hex.h"

namespace osvs::exhaustive {
namespace {

void expect_same_decision(float x, ExpBase base) {
  const ExactExp fast = exact_exp(x, base);
  const ExactExp slow = mpfr_exact_exp(x, base);
  const std::string what = std::string(to_string(base)) + "(" + hex(x) + ")";
  ASSERT_EQ(fast.nan, slow.nan) << what;
  if (fast.nan) return;
  EXPECT_EQ(float_bits(fast.rounded), float_bits(slow.rounded)) << what;
  if (std::isinf(fast.rounded)) return;
  EXPECT_EQ(fast.binade, slow.binade) << what;
  // Both approximations are within their uncertainties of the same real.
  const double ulp = std::ldexp(1.0, fast.binade - 23);
  EXPECT_LE(std::fabs(fast.approx - slow.approx) / ulp, fast.uncertainty + slow.uncertainty)
      << what;
}

/// Every 65521st bit pattern (a prime stride: every binade and both signs), both bases.
TEST(ExactExp, FastPathDecidesLikeMpfrOnAStride) {
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 65521)
    for (const ExpBase b : {ExpBase::E, ExpBase::Two})
      expect_same_decision(bits_float(static_cast<std::uint32_t>(u)), b);
}

/// Around the thresholds where the result overflows, becomes subnormal and rounds to 0: the
/// thresholds are where b^x crosses (2 - 2^-24) 2^127, 2^-126 and 2^-150.
TEST(ExactExp, FastPathDecidesLikeMpfrAtTheThresholds) {
  const double thresholds[] = {std::log2(0x1.ffffffp127), -126.0, -150.0};
  for (const ExpBase b : {ExpBase::E, ExpBase::Two})
    for (const double t : thresholds) {
      float x = static_cast<float>(b == ExpBase::E ? t * std::log(2.0) : t);
      for (int k = 0; k < 600; ++k) x = std::nextafter(x, -INFINITY);
      for (int k = 0; k < 1200; ++k, x = std::nextafter(x, INFINITY)) expect_same_decision(x, b);
    }
}

TEST(ExactExp, SpecialInputsAreExact) {
  for (const ExpBase b : {ExpBase::E, ExpBase::Two}) {
    for (const float zero : {0.0f, -0.0f}) {
      const ExactExp one = exact_exp(zero, b);
      EXPECT_EQ(one.rounded, 1.0f);
      EXPECT_EQ(one.binade, 0);
      EXPECT_EQ(one.uncertainty, 0);
    }
    EXPECT_EQ(exact_exp(-INFINITY, b).rounded, 0.0f);
    EXPECT_TRUE(std::isinf(exact_exp(INFINITY, b).rounded));
    EXPECT_TRUE(exact_exp(NAN, b).nan);
    EXPECT_EQ(ulp_distance(NAN, exact_exp(NAN, b)), 0);
    EXPECT_TRUE(std::isinf(ulp_distance(1.0f, exact_exp(NAN, b))));
    EXPECT_EQ(exact_exp(-FLT_MAX, b).rounded, 0.0f);
    EXPECT_TRUE(std::isinf(exact_exp(FLT_MAX, b).rounded));
  }
}

/// 2^k for an integer k is exact: the float 2^k, its own binade, no uncertainty; 2^-150 is the
/// tie between 0 and 2^-149 and rounds to even (0); 2^128 overflows.
TEST(ExactExp, PowersOfTwoAreExact) {
  for (int k = -149; k <= 127; ++k) {
    const ExactExp r = exact_exp(static_cast<float>(k), ExpBase::Two);
    EXPECT_EQ(r.rounded, std::ldexp(1.0f, k)) << k;
    EXPECT_EQ(r.binade, std::max(k, -126)) << k;
    EXPECT_EQ(ulp_distance(std::ldexp(1.0f, k), r), 0) << k;
  }
  EXPECT_EQ(exact_exp(-150.0f, ExpBase::Two).rounded, 0.0f);
  EXPECT_TRUE(std::isinf(exact_exp(128.0f, ExpBase::Two).rounded));
}

/// The two floats around b^x are 1 ulp apart, so their distances add up to 1 (within both
/// uncertainties), and the correctly rounded one is at most half an ulp away.
TEST(ExactExp, DistancesOfTheNeighboursAddUpToOneUlp) {
  for (std::uint32_t u = 0x3f000000; u < 0x42a00000; u += 1000003) {  // x in [0.5, 80)
    for (const ExpBase b : {ExpBase::E, ExpBase::Two}) {
      const float x = bits_float(u);
      const ExactExp r = exact_exp(x, b);
      if (std::isinf(r.rounded)) continue;
      const float below = r.approx < r.rounded ? std::nextafter(r.rounded, 0.0f) : r.rounded;
      const float above = std::nextafter(below, INFINITY);
      EXPECT_LE(ulp_distance(r.rounded, r), 0.5 + r.uncertainty) << hex(x);
      EXPECT_NEAR(ulp_distance(below, r) + ulp_distance(above, r), 1.0, 2 * r.uncertainty)
          << hex(x);
      EXPECT_NEAR(mpfr_ulp_distance(above, x, b), ulp_distance(above, r), r.uncertainty) << hex(x);
    }
  }
}

}  // namespace
}  // namespace osvs::exhaustive
