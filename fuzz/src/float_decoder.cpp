#include "osvs/fuzz/float_decoder.h"

#include <cmath>
#include <limits>

namespace osvs::fuzz {
namespace {

/// x moved by `steps` ulps along the float line (through zero, saturating at +-inf).
float step_ulps(float x, int steps) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  for (; steps > 0; --steps) x = std::nextafter(x, kInf);
  for (; steps < 0; ++steps) x = std::nextafter(x, -kInf);
  return x;
}

}  // namespace

float decode_float(ByteReader& in, float running_max) {
  const std::uint8_t tag = in.byte();
  const int argument = tag >> kTagBits;  // 0 .. 31
  const float special = gen::kSpecialFloats[static_cast<std::size_t>(argument)];
  switch (static_cast<FloatTag>(tag & ((1 << kTagBits) - 1))) {
    case FloatTag::Raw:
    case FloatTag::RawToo:
      return gen::float_from_bits(in.u32());
    case FloatTag::Special:
    case FloatTag::SpecialToo:
      return special;
    case FloatTag::Tie:
      if (!std::isfinite(running_max)) return special;
      return step_ulps(running_max, argument % 9 - 4);
    case FloatTag::SmallInt:
      return static_cast<float>(argument - 16);
    case FloatTag::Half:
      return gen::half_to_float(in.u16());
    case FloatTag::BFloat16:
      return gen::bf16_to_float(in.u16());
  }
  return 0.0f;  // unreachable: the switch covers all eight tags
}

}  // namespace osvs::fuzz
