// The bf16 / fp16 bit conversions of dtype_bits.h (shared by dtype.cpp and the attention kernels)
// against independent references: the compiler's _Float16 conversion (IEEE round to nearest
// even) for fp16, and for bf16 the rounding of the float's value to 8 significant bits done in
// double arithmetic; every 16-bit pattern round-trips.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "osvs/kernels/dtype_bits.h"

namespace osvs {
namespace {

std::uint16_t reference_f16_bits(float x) {
  const _Float16 h = static_cast<_Float16>(x);
  std::uint16_t b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}

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
    EXPECT_EQ(float_bits(float_of_bf16_bits(bf16_bits_of(x))), float_bits(reference_bf16(x)))
        << std::hexfloat << x;
  }
  EXPECT_GT(checked, 1000000);
}

}  // namespace
}  // namespace osvs
