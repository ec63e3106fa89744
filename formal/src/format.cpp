#include "osvs/formal/format.h"

#include <bit>
#include <cmath>
#include <limits>

#include "osvs/kernels/dtype_bits.h"

namespace osvs::formal {

std::uint32_t Format::canonical_nan_bits() const {
  return bits_of(std::bit_cast<float>(0x7fc00000u));
}

std::uint32_t Format::bits_of(float x) const {
  if (width() == 32) return std::bit_cast<std::uint32_t>(x);
  if (ebits == 8) return bf16_bits_of(x);
  return f16_bits_of(x);
}

float Format::value_of(std::uint32_t bits) const {
  if (width() == 32) return std::bit_cast<float>(bits);
  if (ebits == 8) return float_of_bf16_bits(static_cast<std::uint16_t>(bits));
  return float_of_f16_bits(static_cast<std::uint16_t>(bits));
}

float Format::round(double x) const {
  if (std::isnan(x) || std::isinf(x) || x == 0) return static_cast<float>(x);
  const int bias = (1 << (ebits - 1)) - 1;
  const int min_normal_exponent = 1 - bias;  // 2^-126, 2^-14
  const int quantum_min =
      min_normal_exponent - static_cast<int>(sbits - 1);  // 2^-149, 2^-133, 2^-24
  int e = 0;
  std::frexp(x, &e);  // x = f 2^e, 0.5 <= |f| < 1: its leading bit is 2^(e-1)
  int quantum = e - static_cast<int>(sbits);
  if (quantum < quantum_min) quantum = quantum_min;
  // The scaled value has at most sbits + 1 integer bits: nearbyint rounds it to nearest even
  // (the default mode), exactly, and the scaling back is exact.
  const double r = std::ldexp(std::nearbyint(std::ldexp(x, -quantum)), quantum);
  const double largest =
      std::ldexp(2.0 - std::ldexp(1.0, 1 - static_cast<int>(sbits)), bias);  // (2 - 2^(1-p)) 2^bias
  if (std::fabs(r) > largest) return std::copysign(std::numeric_limits<float>::infinity(), x);
  return static_cast<float>(r);  // exact: every value of the three formats is a float
}

std::optional<Format> parse_format(std::string_view name) {
  for (const Format& f : {kFp32, kBf16, kFp16})
    if (name == f.name) return f;
  return std::nullopt;
}

}  // namespace osvs::formal
