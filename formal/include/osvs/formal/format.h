// The binary floating-point format a proof's state is stored in, and its arithmetic is rounded
// to: binary32 (float, the kernels' state), bfloat16 or binary16 (a kernel that keeps its (m, d)
// in half precision and computes in it: formal/README.md, "bf16 and fp16 states"; its concrete
// arithmetic is kernels' narrow_float.h).
//
// A value of a format is carried on the host as the float that holds it exactly (every bf16 and
// fp16 value is a float), its bits in the low `width()` bits of a uint32.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "osvs/kernels/dtype.h"

namespace osvs::formal {

struct Format {
  const char* name;  ///< "f32", "bf16", "fp16"
  unsigned ebits;    ///< exponent bits
  unsigned sbits;    ///< significand bits, the hidden bit included (SMT's convention)
  unsigned width() const { return ebits + sbits; }
  std::uint32_t sign_bit() const { return std::uint32_t{1} << (width() - 1); }
  /// The bits of every NaN of positive sign: [first, last]; the negative ones are these | sign.
  std::uint32_t positive_nan_first() const { return infinity_bits() + 1; }
  std::uint32_t positive_nan_last() const { return sign_bit() - 1; }
  std::uint32_t infinity_bits() const { return ((std::uint32_t{1} << ebits) - 1) << (sbits - 1); }
  /// The canonical quiet NaN: the kernels' canonical_nan() (0x7fc00000) in this format.
  std::uint32_t canonical_nan_bits() const;
  bool is_f32() const { return width() == 32; }
  /// The kernels' name of the type (F32, BF16, F16): a narrow state's concrete arithmetic is
  /// kernels' Narrow<dtype()> (narrow_float.h), its regression file's state_format this type.
  DType dtype() const;

  /// x (a float) rounded to this format, to nearest even; overflow gives +-inf; a NaN keeps its
  /// sign and the top of its payload, quiet bit set (kernels' dtype_bits.h for bf16 and fp16).
  std::uint32_t bits_of(float x) const;
  /// The value of bits, exactly, as a float.
  float value_of(std::uint32_t bits) const;
  /// x rounded to this format (a float of the format, exactly).
  float round_float(float x) const { return value_of(bits_of(x)); }
};

inline constexpr Format kFp32{"f32", 8, 24};
inline constexpr Format kBf16{"bf16", 8, 8};
inline constexpr Format kFp16{"fp16", 5, 11};

/// "f32", "bf16" or "fp16".
std::optional<Format> parse_format(std::string_view name);

}  // namespace osvs::formal
