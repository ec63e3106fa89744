// Hex-float text: exact round trip of every float bit pattern (NaN payloads included), the
// documented spellings, and refusal of anything inexact, partial or spelt otherwise. The exhaustive
// round trip of all 2^32 floats is HexFloatExhaustive (ctest replay.hex_float_exhaustive, label
// slow); the default run takes a strided sample of every bit pattern and every NaN.
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

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

double double_from_bits(std::uint64_t u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

std::uint64_t bits_of(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

/// True when the float with bits u is written and read back with the same bits.
bool round_trips(std::uint32_t u) {
  const auto back = parse_hex_float(format_hex_float(from_bits(u)));
  return back.has_value() && bits_of(*back) == u;
}

/// Bit patterns first, first + stride, ... below 2^32 that do not round-trip, on every hardware
/// thread; *first_bad is the smallest of them (meaningful when the count is not 0).
std::uint64_t round_trip_failures(std::uint64_t first, std::uint64_t stride,
                                  std::uint32_t* first_bad) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<std::uint64_t> failures{0};
  std::atomic<std::uint32_t> smallest{0xffffffffu};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::uint64_t mine = 0;
      for (std::uint64_t u = first + t * stride; u < (std::uint64_t{1} << 32);
           u += threads * stride) {
        if (round_trips(static_cast<std::uint32_t>(u))) continue;
        if (mine++ == 0) {
          std::uint32_t seen = smallest.load();
          while (u < seen && !smallest.compare_exchange_weak(seen, static_cast<std::uint32_t>(u))) {
          }
        }
      }
      failures += mine;
    });
  for (auto& th : pool) th.join();
  *first_bad = smallest.load();
  return failures.load();
}

TEST(HexFloat, WritesTheDocumentedForms) {
  EXPECT_EQ(format_hex_float(12.0f), "0x1.8p+3");  // 12 = 1.5 * 2^3
  EXPECT_EQ(format_hex_float(-0.0f), "-0x0p+0");
  EXPECT_EQ(format_hex_float(0.0f), "0x0p+0");
  EXPECT_EQ(format_hex_float(std::numeric_limits<float>::denorm_min()), "0x1p-149");
  EXPECT_EQ(format_hex_float(FLT_MAX), "0x1.fffffep+127");  // (2 - 2^-23) * 2^127
  EXPECT_EQ(format_hex_float(INFINITY), "inf");
  EXPECT_EQ(format_hex_float(-INFINITY), "-inf");
  EXPECT_EQ(format_hex_float(from_bits(0x7fc00000u)), "nan");  // the canonical quiet NaN
  EXPECT_EQ(format_hex_float(from_bits(0xffc00000u)), "-nan");
  EXPECT_EQ(format_hex_float(from_bits(0x7fc00001u)), "nan(0x400001)");  // quiet bit + payload 1
  EXPECT_EQ(format_hex_float(from_bits(0xffc00001u)), "-nan(0x400001)");
  EXPECT_EQ(format_hex_float(from_bits(0x7f800001u)), "nan(0x1)");  // signalling
  EXPECT_EQ(format_hex_float(from_bits(0xffffffffu)), "-nan(0x7fffff)");
  EXPECT_EQ(format_hex_double(double_from_bits(0x7ff8000000000000ull)), "nan");
  EXPECT_EQ(format_hex_double(double_from_bits(0xfff0000000000001ull)), "-nan(0x1)");
  EXPECT_EQ(format_hex_double(std::numeric_limits<double>::denorm_min()), "0x1p-1074");
  EXPECT_EQ(format_hex_double(DBL_MAX), "0x1.fffffffffffffp+1023");
}

TEST(HexFloat, FiniteAndInfiniteFloatsAreWrittenAsPrintfWritesThem) {
  // The text of every float that is not a NaN is what printf's %a writes for it (widened to
  // double, exactly), so files written before the writer worked on the bits read and hash alike.
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 65521) {  // a prime stride
    const float x = from_bits(static_cast<std::uint32_t>(u));
    if (std::isnan(x)) continue;
    char expected[64];
    if (std::isinf(x))
      std::snprintf(expected, sizeof expected, "%s", x < 0 ? "-inf" : "inf");
    else
      std::snprintf(expected, sizeof expected, "%a", static_cast<double>(x));
    ASSERT_EQ(format_hex_float(x), expected) << std::hex << u;
  }
}

TEST(HexFloat, ReadsTheOldPayloadFreeNaNAsTheCanonicalQuietNaN) {
  ASSERT_TRUE(parse_hex_float("nan"));
  EXPECT_EQ(bits_of(*parse_hex_float("nan")), 0x7fc00000u);
  EXPECT_EQ(bits_of(*parse_hex_float("-nan")), 0xffc00000u);
  EXPECT_EQ(bits_of(*parse_hex_double("nan")), 0x7ff8000000000000ull);
  EXPECT_EQ(bits_of(*parse_hex_double("-nan")), 0xfff8000000000000ull);
}

TEST(HexFloat, RefusesNaNTextTheWriterWouldNotWrite) {
  EXPECT_FALSE(parse_hex_float("nan(0x0)"));       // fraction 0 is infinity
  EXPECT_FALSE(parse_hex_float("nan(0x400000)"));  // the canonical quiet NaN is "nan"
  EXPECT_FALSE(parse_hex_float("nan(0x800000)"));  // wider than a float's 23-bit field
  EXPECT_FALSE(parse_hex_float("nan(0x01)"));      // leading zero
  EXPECT_FALSE(parse_hex_float("nan(0x1A)"));      // uppercase
  EXPECT_FALSE(parse_hex_float("nan(0X1)"));
  EXPECT_FALSE(parse_hex_float("nan(1)"));
  EXPECT_FALSE(parse_hex_float("nan(0x1"));
  EXPECT_FALSE(parse_hex_float("nan()"));
  EXPECT_FALSE(parse_hex_float("+nan"));
  EXPECT_FALSE(parse_hex_float("nan(0x1)x"));
  ASSERT_TRUE(parse_hex_double("nan(0x8000000000001)"));  // a double's 52-bit field fits
  EXPECT_EQ(bits_of(*parse_hex_double("nan(0x8000000000001)")), 0x7ff8000000000001ull);
  EXPECT_FALSE(parse_hex_double("nan(0x10000000000000)"));
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
  EXPECT_FALSE(parse_hex_double("0x1p-1075"));     // half the smallest double subnormal
  EXPECT_FALSE(parse_hex_double("0x1.00000000000008p+0"));  // 1 + 2^-53: not a double
  EXPECT_FALSE(parse_hex_float("0x"));
  EXPECT_FALSE(parse_hex_float("0x.p+0"));
  EXPECT_FALSE(parse_hex_float("0x1p"));
  EXPECT_FALSE(parse_hex_float("0x1.2.3p+0"));
  ASSERT_TRUE(parse_hex_double("0x1.0000000000001p+0"));  // 1 + 2^-52 is a double
  EXPECT_EQ(*parse_hex_double("0x1.0000000000001p+0"), 1.0 + std::ldexp(1.0, -52));
}

TEST(HexFloat, ReadsOtherExactSpellingsOfTheSameValue) {
  // Hand-written C99 hex floats are read when exact: 12 = 0x1.8p+3 = 0x18p-1 = 0x0.cp+4.
  for (const char* twelve : {"0x1.8p+3", "0x18p-1", "0x0.cp+4", "0X1.8P3", "+0x1.8p+3", "0xcp0"}) {
    ASSERT_TRUE(parse_hex_float(twelve)) << twelve;
    EXPECT_EQ(*parse_hex_float(twelve), 12.0f) << twelve;
  }
  // Zeros beyond 60 significant bits are not lost precision.
  EXPECT_EQ(*parse_hex_float("0x1.00000000000000000000p+0"), 1.0f);
  EXPECT_EQ(*parse_hex_float("0x100000000000000000000p-80"), 1.0f);
  EXPECT_FALSE(parse_hex_float("0x100000000000000000001p-80"));  // 1 + 2^-80
}

RC_GTEST_PROP(HexFloat, RandomFloatBitPatternsRoundTrip, (std::uint32_t u)) {
  RC_ASSERT(round_trips(u));
}

TEST(HexFloat, EveryNaNAndAStridedSampleOfAllFloatsRoundTrip) {
  // Every NaN bit pattern (2^24 - 2), then every 251st of all 2^32 patterns.
  std::uint64_t bad_nans = 0;
  for (std::uint32_t sign : {0u, 0x80000000u})
    for (std::uint32_t fraction = 1; fraction < (1u << 23); ++fraction)
      bad_nans += !round_trips(sign | 0x7f800000u | fraction);
  EXPECT_EQ(bad_nans, 0u);
  std::uint32_t first_bad = 0;
  EXPECT_EQ(round_trip_failures(0, 251, &first_bad), 0u) << "first: 0x" << std::hex << first_bad;
}

TEST(HexFloatExhaustive, EveryFloatBitPatternRoundTrips) {
  std::uint32_t first_bad = 0;
  EXPECT_EQ(round_trip_failures(0, 1, &first_bad), 0u) << "first: 0x" << std::hex << first_bad;
}

TEST(HexFloat, SpecialAndBoundaryFloatsRoundTripBitExactly) {
  const float specials[] = {0.0f,
                            -0.0f,
                            INFINITY,
                            -INFINITY,
                            from_bits(0x7fc00000u),
                            from_bits(0xffc00000u),
                            from_bits(0x7fc00001u),
                            from_bits(0x7f800001u),
                            from_bits(0xffbfffffu),
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
    EXPECT_EQ(bits_of(*back), bits_of(x)) << format_hex_float(x);
  }
}

RC_GTEST_PROP(HexFloat, RandomDoubleBitPatternsRoundTrip, (std::uint64_t u)) {
  const auto back = parse_hex_double(format_hex_double(double_from_bits(u)));
  RC_ASSERT(back.has_value());
  RC_ASSERT(bits_of(*back) == u);
}

TEST(HexFloat, DoubleNaNsAndSubnormalsRoundTrip) {
  for (std::uint64_t u : {0x7ff0000000000001ull, 0xfff7ffffffffffffull, 0x7fffffffffffffffull,
                          0x7ff8000000000001ull, 0x0000000000000001ull, 0x800fffffffffffffull}) {
    const auto back = parse_hex_double(format_hex_double(double_from_bits(u)));
    ASSERT_TRUE(back.has_value()) << format_hex_double(double_from_bits(u));
    EXPECT_EQ(bits_of(*back), u) << format_hex_double(double_from_bits(u));
  }
}

}  // namespace
}  // namespace osvs
