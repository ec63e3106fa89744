// Hex-float text: exact round trip of every float class, refusal of anything inexact or partial.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "osvs/replay/hex_float.h"

namespace osvs {
namespace {

std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

float from_bits(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

/// The bits a float has after a round trip: itself, except that a NaN loses its payload.
std::uint32_t round_trip_bits(float x) {
  const std::uint32_t u = bits_of(x);
  return std::isnan(x) ? (u & 0x80000000u) | 0x7fc00000u : u;
}

TEST(HexFloat, WritesTheDocumentedForms) {
  EXPECT_EQ(format_hex_float(12.0f), "0x1.8p+3");  // 12 = 1.5 * 2^3
  EXPECT_EQ(format_hex_float(-0.0f), "-0x0p+0");
  EXPECT_EQ(format_hex_float(0.0f), "0x0p+0");
  EXPECT_EQ(format_hex_float(std::numeric_limits<float>::denorm_min()), "0x1p-149");
  EXPECT_EQ(format_hex_float(FLT_MAX), "0x1.fffffep+127");  // (2 - 2^-23) * 2^127
  EXPECT_EQ(format_hex_float(INFINITY), "inf");
  EXPECT_EQ(format_hex_float(-INFINITY), "-inf");
  EXPECT_EQ(format_hex_float(from_bits(0x7fc00000u)), "nan");
  EXPECT_EQ(format_hex_float(from_bits(0xffc00001u)), "-nan");  // payload dropped, sign kept
}

TEST(HexFloat, RefusesInexactPartialOrForeignText) {
  EXPECT_FALSE(parse_hex_float("0.1"));            // decimal: not exact, refused
  EXPECT_FALSE(parse_hex_float("1"));              // not a hex float
  EXPECT_FALSE(parse_hex_float("0x1p+0 "));        // trailing space
  EXPECT_FALSE(parse_hex_float("0x1p+0x"));        // trailing garbage
  EXPECT_FALSE(parse_hex_float(""));               // empty
  EXPECT_FALSE(parse_hex_float("0x1.000001p+0"));  // 1 + 2^-24: needs 24 significand bits
  EXPECT_FALSE(parse_hex_float("0x1p-150"));       // half the smallest subnormal: not a float
  EXPECT_FALSE(parse_hex_float("0x1p+128"));       // beyond FLT_MAX
  EXPECT_FALSE(parse_hex_float("NaN"));            // only the spellings the writer uses
  EXPECT_FALSE(parse_hex_double("0x1p+99999"));    // overflows a double
  ASSERT_TRUE(parse_hex_double("0x1.0000000000001p+0"));  // 1 + 2^-52 is a double
  EXPECT_EQ(*parse_hex_double("0x1.0000000000001p+0"), 1.0 + std::ldexp(1.0, -52));
}

RC_GTEST_PROP(HexFloat, EveryFloatBitPatternRoundTrips, (std::uint32_t u)) {
  const float x = from_bits(u);
  const auto back = parse_hex_float(format_hex_float(x));
  RC_ASSERT(back.has_value());
  RC_ASSERT(bits_of(*back) == round_trip_bits(x));
}

TEST(HexFloat, SpecialAndBoundaryFloatsRoundTripBitExactly) {
  const float specials[] = {0.0f,
                            -0.0f,
                            INFINITY,
                            -INFINITY,
                            from_bits(0x7fc00000u),
                            from_bits(0xffc00000u),
                            FLT_MAX,
                            -FLT_MAX,
                            FLT_MIN,
                            -FLT_MIN,
                            std::numeric_limits<float>::denorm_min(),
                            from_bits(0x007fffffu),
                            from_bits(0x807fffffu),
                            1.0f,
                            -1.0f};
  for (float x : specials) {
    const auto back = parse_hex_float(format_hex_float(x));
    ASSERT_TRUE(back.has_value()) << format_hex_float(x);
    EXPECT_EQ(bits_of(*back), round_trip_bits(x)) << format_hex_float(x);
  }
}

RC_GTEST_PROP(HexFloat, EveryDoubleBitPatternRoundTrips, (std::uint64_t u)) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  const auto back = parse_hex_double(format_hex_double(x));
  RC_ASSERT(back.has_value());
  std::uint64_t v;
  std::memcpy(&v, &*back, sizeof v);
  const std::uint64_t expected =
      std::isnan(x) ? (u & 0x8000000000000000ull) | 0x7ff8000000000000ull : u;
  RC_ASSERT(v == expected);
}

}  // namespace
}  // namespace osvs
