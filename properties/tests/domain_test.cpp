// The shared input domain (gen/domain.h): the exp edges of the special pool sit on the side of
// their threshold that the comment claims, the binary16 decoder follows IEEE 754, and the
// generators stay inside the caps the fuzz decoder uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>

#include "osvs/properties/gen/domain.h"
#include "osvs/properties/gen/floats.h"
#include "osvs/properties/gen/rows.h"

namespace osvs::gen {
namespace {

/// exp(x) rounded to float once: double's exp is accurate to far below a float ulp, so this is
/// the correctly rounded float exp except within 2^-29 relative of a rounding boundary.
float rounded_exp(float x) {
  return static_cast<float>(std::exp(static_cast<double>(x)));
}

bool in_pool(float x) {
  return std::any_of(kSpecialFloats.begin(), kSpecialFloats.end(), [x](float p) {
    return std::bit_cast<std::uint32_t>(p) == std::bit_cast<std::uint32_t>(x);
  });
}

TEST(Domain, ExpEdgesBracketTheirThresholds) {
  const float finite_edge = 0x1.62e42ep+6f, overflow_edge = 0x1.62e430p+6f;
  EXPECT_EQ(std::nextafter(finite_edge, INFINITY), overflow_edge);  // neighbours
  EXPECT_LE(rounded_exp(finite_edge), FLT_MAX);
  EXPECT_EQ(rounded_exp(overflow_edge), std::numeric_limits<float>::infinity());

  const float nonzero_edge = -0x1.9fe368p+6f, zero_edge = -0x1.9fe36ap+6f;
  EXPECT_EQ(std::nextafter(nonzero_edge, -INFINITY), zero_edge);  // neighbours
  EXPECT_EQ(rounded_exp(nonzero_edge), FLT_TRUE_MIN);
  EXPECT_EQ(rounded_exp(zero_edge), 0.0f);

  const float ln_flt_min = -0x1.5d58a0p+6f;  // ln 2^-126 = -126 ln 2, rounded to nearest
  EXPECT_EQ(ln_flt_min, static_cast<float>(-126 * std::log(2.0)));
  EXPECT_EQ(0x1.62e430p-1f, static_cast<float>(std::log(2.0)));

  for (float edge : {finite_edge, overflow_edge, nonzero_edge, zero_edge, ln_flt_min})
    EXPECT_TRUE(in_pool(edge)) << edge;
}

TEST(Domain, PoolHoldsEverySpecialClass) {
  const float inf = std::numeric_limits<float>::infinity();
  for (float x : {0.0f, -0.0f, inf, -inf, FLT_MIN, -FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MAX,
                  -FLT_MAX, 1.0f, -1.0f})
    EXPECT_TRUE(in_pool(x)) << x;
  EXPECT_TRUE(std::any_of(kSpecialFloats.begin(), kSpecialFloats.end(),
                          [](float x) { return std::isnan(x) && std::signbit(x); }));
  EXPECT_EQ(nasty_constants().size(), kSpecialFloats.size());  // the generators' pool is this one
}

TEST(Domain, HalfBitsFollowBinary16) {
  // binary16: sign 1, exponent 5 (bias 15), mantissa 10 bits.
  EXPECT_EQ(half_to_float(0x3c00), 1.0f);                   // 2^0
  EXPECT_EQ(half_to_float(0x7bff), 65504.0f);               // (2 - 2^-10) 2^15
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal 2^-14 2^-10
  EXPECT_EQ(half_to_float(0x0400), std::ldexp(1.0f, -14));  // smallest normal
  EXPECT_EQ(half_to_float(0xc000), -2.0f);
  EXPECT_TRUE(std::signbit(half_to_float(0x8000)) && half_to_float(0x8000) == 0.0f);
  EXPECT_EQ(half_to_float(0xfc00), -INFINITY);
  EXPECT_TRUE(std::isnan(half_to_float(0x7e00)));
}

TEST(Domain, Fp16ExactFloatsAreFiniteHalves) {
  // fp16_exact_float decodes 16 random bits with half_to_float, the inf/NaN encodings moved onto
  // the top binade: every value is finite, at most fp16's max, and the top binade is reached.
  const rc::Gen<float> g = fp16_exact_float();
  rc::Random random(1);
  float largest = 0;
  for (int i = 0; i < 2000; ++i) {
    const float x = g(random.split(), 100).value();
    ASSERT_TRUE(std::isfinite(x)) << x;
    largest = std::max(largest, std::fabs(x));
  }
  EXPECT_LE(largest, half_to_float(0x7bff));  // the largest finite half, 65504
  EXPECT_GE(largest, half_to_float(0x7800));  // 2^15: the top binade (1 in 16 bit patterns)
}

}  // namespace
}  // namespace osvs::gen
