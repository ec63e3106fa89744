#include "osvs/fuzz/float_decoder.h"

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

namespace osvs::fuzz {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

constexpr float from_bits(std::uint32_t u) {
  return std::bit_cast<float>(u);
}

// Each constant is exact as written; the ln values are the floats nearest the real logarithm
// (computed in double and rounded to float: ln 2 = 0.69314718..., ln FLT_MAX = 88.7228390...,
// ln FLT_MIN = -87.3365447..., ln FLT_TRUE_MIN = -103.278929...).
constexpr std::array<float, 32> kNasty = {
    0.0f,
    -0.0f,
    kInf,
    -kInf,
    from_bits(0x7fc00000u),  // quiet NaN
    from_bits(0xffc00000u),  // quiet NaN, sign set
    from_bits(0x7fa00001u),  // signalling NaN with a payload
    FLT_MIN,
    -FLT_MIN,
    FLT_TRUE_MIN,
    -FLT_TRUE_MIN,
    0x1.fffffcp-127f,  // largest subnormal
    FLT_MAX,
    -FLT_MAX,
    1.0f,
    -1.0f,
    2.0f,
    0.5f,
    3.0f,
    0x1.000002p+0f,  // 1 + 2^-23: one ulp above 1
    0x1.fffffep-1f,  // 1 - 2^-24: one ulp below 1
    0x1p-24f,        // u, the unit roundoff of float
    0x1.62e430p-1f,  // ln 2 rounded to float
    0x1.62e430p+5f,  // 64 ln 2 rounded to float (exp of it is near 2^64)
    0x1.62e430p+6f,  // ln FLT_MAX rounded up: expf overflows to +inf here
    0x1.62e42ep+6f,  // the float below it: the largest x with finite expf(x)
    -0x1.62e430p+6f,
    -0x1.5d58a0p+6f,  // ln FLT_MIN rounded to float: expf becomes subnormal below
    -0x1.9d1da0p+6f,  // ln FLT_TRUE_MIN rounded to float: expf underflows to 0 below
    0x1p+24f,         // 2^24: from here on not every integer is a float
    100.0f,
    -100.0f,
};

/// x moved by `steps` ulps along the float line (through zero, saturating at +-inf).
float step_ulps(float x, int steps) {
  for (; steps > 0; --steps) x = std::nextafter(x, kInf);
  for (; steps < 0; ++steps) x = std::nextafter(x, -kInf);
  return x;
}

}  // namespace

std::span<const float> nasty_floats() {
  return kNasty;
}

float half_to_float(std::uint16_t h) {
  const bool negative = (h & 0x8000u) != 0;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa == 0 ? kInf : std::numeric_limits<float>::quiet_NaN();
  else if (exponent == 0)
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal: m * 2^-24, exact
  else
    magnitude = std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);  // exact
  return negative ? -magnitude : magnitude;
}

float decode_float(ByteReader& in, float running_max) {
  const std::uint8_t tag = in.byte();
  const int argument = tag >> 3;  // 0 .. 31
  switch (static_cast<FloatTag>(tag & 7)) {
    case FloatTag::Raw:
    case FloatTag::RawToo:
      return from_bits(in.u32());
    case FloatTag::Nasty:
    case FloatTag::NastyToo:
      return kNasty[static_cast<std::size_t>(argument)];
    case FloatTag::Tie:
      if (!std::isfinite(running_max)) return kNasty[static_cast<std::size_t>(argument)];
      return step_ulps(running_max, argument % 9 - 4);
    case FloatTag::SmallInt:
      return static_cast<float>(argument - 16);
    case FloatTag::Half:
      return half_to_float(in.u16());
    case FloatTag::BFloat16:
      return from_bits(std::uint32_t{in.u16()} << 16);
  }
  return 0.0f;  // unreachable: the switch covers all eight tags
}

}  // namespace osvs::fuzz
