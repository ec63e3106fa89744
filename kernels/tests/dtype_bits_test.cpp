// The bf16 / fp16 bit conversions of dtype_bits.h (shared by dtype.cpp and the attention kernels)
// against independent references: the rounding of the float's value to 11 (fp16) or 8 (bf16)
// significant bits done in double arithmetic, and for fp16 also the compiler's _Float16
// conversion where the compiler has one (clang 14 on x86 has not); every 16-bit pattern
// round-trips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "osvs/kernels/dtype_bits.h"

namespace osvs {
namespace {

/// x rounded to fp16 (11 significant bits, normal exponents from -14, subnormal steps of 2^-24,
/// overflow at 65520 and above), ties to even, done in double arithmetic, encoded by hand.
std::uint16_t reference_f16_bits(float x) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isinf(x)) return sign | 0x7c00;
  if (x == 0) return sign;
  const int e = std::max(std::ilogb(x), -14);
  const double step = std::ldexp(1.0, e - 10);
  const double q = std::fabs(std::nearbyint(static_cast<double>(x) / step) * step);  // exact
  if (q >= 0x1p16) return sign | 0x7c00;
  if (q == 0) return sign;
  const int qe = std::ilogb(q);
  if (qe < -14) return sign | static_cast<std::uint16_t>(std::ldexp(q, 24));  // subnormal
  const auto mantissa = static_cast<std::uint16_t>(std::ldexp(q, 10 - qe) - 1024);
  return sign | static_cast<std::uint16_t>((qe + 15) << 10) | mantissa;
}

#ifdef __FLT16_MANT_DIG__
/// The compiler's own conversion (IEEE round to nearest even), where it has _Float16.
std::uint16_t compiler_f16_bits(float x) {
  const _Float16 h = static_cast<_Float16>(x);
  std::uint16_t b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}
#endif

/// x rounded to bf16 (8 significant bits, float's exponent range), ties to even, as a float.
float reference_bf16(float x) {
  if (!std::isfinite(x) || x == 0) return x;
  const int e = std::max(std::ilogb(x), -126);
  const double step = std::ldexp(1.0, e - 7);
  const double q = std::nearbyint(static_cast<double>(x) / step) * step;  // exact in double
  return std::fabs(q) >= 0x1p128 ? std::copysign(INFINITY, x) : static_cast<float>(q);
}

TEST(DtypeBits, EverySixteenBitPatternRoundTrips) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const float h = float_of_f16_bits(bits);
    if (!std::isnan(h)) EXPECT_EQ(f16_bits_of(h), bits) << b;
    const float g = float_of_bf16_bits(bits);
    if (!std::isnan(g)) EXPECT_EQ(bf16_bits_of(g), bits) << b;
  }
}

TEST(DtypeBits, SampledFloatsRoundLikeTheReferences) {
  int checked = 0;
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 4093) {
    const float x = bits_float(static_cast<std::uint32_t>(u));
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(float_of_f16_bits(f16_bits_of(x))));
      EXPECT_TRUE(std::isnan(float_of_bf16_bits(bf16_bits_of(x))));
      continue;
    }
    ++checked;
    EXPECT_EQ(f16_bits_of(x), reference_f16_bits(x)) << std::hexfloat << x;
#ifdef __FLT16_MANT_DIG__
    EXPECT_EQ(reference_f16_bits(x), compiler_f16_bits(x)) << std::hexfloat << x;
#endif
    EXPECT_EQ(float_bits(float_of_bf16_bits(bf16_bits_of(x))), float_bits(reference_bf16(x)))
        << std::hexfloat << x;
  }
  EXPECT_GT(checked, 1000000);
}

}  // namespace
}  // namespace osvs
