// Conversions of dtype.h: every bf16 and fp16 bit pattern, and float -> half rounding checked
// against the compiler's own _Float16 conversion (round to nearest even) on every float of a
// dense sample, and against the bf16 neighbours of each float.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "osvs/api/dtype.h"

namespace osvs {
namespace {

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

float from_bits(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

TEST(DType, EveryHalfPatternRoundTrips) {
  for (std::uint32_t b = 0; b < 0x10000u; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float f16 = from_f16_bits(h), bf = from_bf16_bits(h);
    if (std::isnan(f16)) {
      EXPECT_TRUE(std::isnan(from_f16_bits(to_f16_bits(f16)))) << b;
    } else {
      ASSERT_EQ(to_f16_bits(f16), h) << "fp16 pattern " << b;
    }
    if (std::isnan(bf)) {
      EXPECT_TRUE(std::isnan(from_bf16_bits(to_bf16_bits(bf)))) << b;
    } else {
      ASSERT_EQ(to_bf16_bits(bf), h) << "bf16 pattern " << b;
    }
  }
}

#ifdef __FLT16_MANT_DIG__  // the compiler has _Float16 (gcc; not clang 14 on x86)
TEST(DType, Fp16DecodeMatchesTheCompilersBinary16) {
  for (std::uint32_t b = 0; b < 0x10000u; ++b) {
    _Float16 h;
    const auto p = static_cast<std::uint16_t>(b);
    std::memcpy(&h, &p, 2);
    const float want = static_cast<float>(h);
    const float got = from_f16_bits(p);
    if (std::isnan(want))
      EXPECT_TRUE(std::isnan(got)) << b;
    else
      ASSERT_EQ(bits(got), bits(want)) << "pattern " << b;
  }
}

TEST(DType, Fp16RoundingMatchesTheCompilersBinary16) {
  // Every 61st float pattern (about 70 million values), all binades and signs.
  for (std::uint64_t u = 0; u <= 0xffffffffull; u += 61) {
    const float x = from_bits(static_cast<std::uint32_t>(u));
    if (std::isnan(x)) continue;
    const _Float16 h = static_cast<_Float16>(x);
    std::uint16_t want;
    std::memcpy(&want, &h, 2);
    ASSERT_EQ(to_f16_bits(x), want) << std::hexfloat << x;
  }
}
#else
TEST(DType, Fp16AgainstTheCompilersBinary16) {
  GTEST_SKIP() << "this compiler has no _Float16; DtypeBits (kernels.attention) checks the fp16 "
                  "conversions against a reference in double arithmetic on every compiler";
}
#endif

TEST(DType, Bf16RoundsToTheNearestNeighbourTiesToEven) {
  for (std::uint64_t u = 0; u <= 0xffffffffull; u += 61) {
    const float x = from_bits(static_cast<std::uint32_t>(u));
    if (!std::isfinite(x)) continue;
    const std::uint32_t down = static_cast<std::uint32_t>(u) & 0xffff0000u;
    const float lo = from_bits(down), hi = from_bits(down + 0x10000u);  // toward / away from 0
    if (std::isinf(hi)) continue;  // rounding past the largest bf16: IEEE overflow rules
    const double dlo = std::fabs(static_cast<double>(x) - lo);
    const double dhi = std::fabs(static_cast<double>(hi) - x);
    const float want = dlo < dhi ? lo : dhi < dlo ? hi : ((down >> 16) & 1u ? hi : lo);
    ASSERT_EQ(bits(round_to(DType::BF16, x)), bits(want)) << std::hexfloat << x;
  }
}

TEST(DType, NamesParseBack) {
  for (DType t :
       {DType::F32, DType::BF16, DType::F16, DType::I32, DType::I64, DType::E4M3, DType::E5M2})
    EXPECT_EQ(parse_dtype(to_string(t)), t);
  EXPECT_EQ(parse_dtype("e4m3"), DType::E4M3);
  EXPECT_EQ(parse_dtype("e5m2"), DType::E5M2);
  EXPECT_FALSE(parse_dtype("f64"));
}

}  // namespace
}  // namespace osvs
