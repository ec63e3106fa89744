// The bit-level conversions float <-> bf16 / fp16, written once for host and device.
//
// dtype.cpp's to_bf16_bits / to_f16_bits / from_*_bits call these, and the attention kernels
// (kernels/src/cuda/attention/) store their outputs through them, so that the CPU model and the GPU
// round to the narrow types bit for bit alike (no CUDA intrinsic with its own NaN convention).
// Rounding is to nearest, ties to even; overflow gives +-inf; a NaN stays a NaN with its payload
// truncated and the quiet bit set.
#pragma once

#include <cstdint>

#include "osvs/kernels/hd.h"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace osvs {

OSVS_HD std::uint16_t bf16_bits_of(float x) {
  const std::uint32_t u = float_bits(x);
  if (is_nan(x)) return static_cast<std::uint16_t>((u >> 16) | 0x40u);  // keep it a NaN
  // Round to nearest even on the low 16 bits; a carry into the exponent is the correct rounding
  // (up to the next binade, or to inf past the largest finite bf16).
  const std::uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>((u + rounding) >> 16);
}

OSVS_HD float float_of_bf16_bits(std::uint16_t b) {
  return bits_float(static_cast<std::uint32_t>(b) << 16);
}

OSVS_HD std::uint16_t f16_bits_of(float x) {
  const std::uint32_t u = float_bits(x);
  const std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  if (is_nan(x)) return static_cast<std::uint16_t>(sign | 0x7e00u | ((u >> 13) & 0x1ffu));
  const std::uint32_t mag = u & 0x7fffffffu;
  const float a = bits_float(mag);
  if (a >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (a < 0x1p-14f) {
    // Subnormal (or zero) result: a / 2^-24 rounded to an integer, ties to even; exact in float
    // since a < 2^-14 has at most 24 significant bits and the scaling is a power of two. The
    // magic-number addition rounds to an integer in round-to-nearest-even on both sides.
    const float q = (a * 0x1p24f + 8388608.0f) - 8388608.0f;  // 2^23: a*2^24 < 2^10, exact sum
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(q));
  }
  // Normal: drop 13 significand bits with round to nearest even; a carry is a correct round-up.
  const std::uint32_t rebased = mag - (112u << 23);  // exponent bias 127 -> 15
  const std::uint32_t rounded = rebased + 0xfffu + ((rebased >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | (rounded >> 13));
}

OSVS_HD float float_of_f16_bits(std::uint16_t b) {
  const std::uint32_t sign = (b & 0x8000u) ? 0x80000000u : 0u;
  const std::uint32_t exponent = (b >> 10) & 0x1fu;
  const std::uint32_t mantissa = b & 0x3ffu;
  if (exponent == 0x1f) return bits_float(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
  if (exponent == 0) {
    // mantissa * 2^-24, exact: an integer below 2^10 times a power of two.
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return bits_float(sign | float_bits(magnitude));
  }
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

}  // namespace osvs
