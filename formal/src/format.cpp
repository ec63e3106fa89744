#include "osvs/formal/format.h"

#include <bit>

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

DType Format::dtype() const {
  if (width() == 32) return DType::F32;
  return ebits == 8 ? DType::BF16 : DType::F16;
}

std::optional<Format> parse_format(std::string_view name) {
  for (const Format& f : {kFp32, kBf16, kFp16})
    if (name == f.name) return f;
  return std::nullopt;
}

}  // namespace osvs::formal
