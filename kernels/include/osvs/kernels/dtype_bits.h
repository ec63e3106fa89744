// The bit-level conversions float <-> bf16 / fp16 / fp8 (E4M3, E5M2), written once for host and
// device.
//
// dtype.cpp's to_bf16_bits / to_f16_bits / from_*_bits call these, and the attention kernels
// (kernels/src/cuda/attention/) store their outputs through them, so that the CPU model and the GPU
// round to the narrow types bit for bit alike (no CUDA intrinsic with its own NaN convention).
// Rounding is to nearest, ties to even; overflow gives +-inf; a NaN stays a NaN with its payload
// truncated and the quiet bit set (fp8's overflow and NaNs: below, with its formats).
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

// --- fp8 (OCP 8-bit floating point, "OFP8" v1.0): K/V storage of the attention kind.
//
// E4M3 (OCP's "e4m3fn"): sign, 4 exponent bits (bias 7), 3 mantissa bits; no infinities; the one
// NaN pattern of each sign S.1111.111; normals 2^-6 ... 448 (1.110b 2^8), subnormals m 2^-9
// (m = 1 ... 7). E5M2: sign, 5 exponent bits (bias 15), 2 mantissa bits, IEEE-like: normals
// 2^-14 ... 57344 (1.11b 2^15), subnormals m 2^-16, +-inf S.11111.00, NaN S.11111.{01,10,11}.
//
// float -> fp8 rounds to nearest, ties to even, subnormals included; overflow is OCP's
// non-saturating mode (CUDA's __NV_NOSAT, torch's .to(float8_*)): a magnitude that rounds past the
// largest finite value gives NaN in E4M3 (more than 464, the midpoint between 448 and the
// 1.111b 2^8 that the NaN pattern takes; 464 itself rounds to the even 448; inf too) and +-inf
// in E5M2 (61440, the midpoint between 57344 and 2^16, and more: the tie goes to the even 2^16).
// A NaN stays a NaN: E4M3's one pattern, E5M2's with the quiet bit set and the float's payload
// bit below its own quiet bit kept (as f16_bits_of). fp8 -> float is exact: E4M3's NaN gives the
// quiet float NaN of its sign (no payload), E5M2's the float NaN of its bits shifted in place.

namespace detail {

/// |x|'s bits (mag: float_bits(x) & 0x7fffffff, a finite value below the format's overflow
/// threshold) rounded to nearest even to a format of `mantissa` bits and exponent bias `bias`
/// whose smallest normal is 2^(1 - bias): the format's bits without the sign.
OSVS_HD std::uint32_t small_format_bits(std::uint32_t mag, int bias, int mantissa) {
  const float a = bits_float(mag);
  const float min_normal = bits_float(static_cast<std::uint32_t>(128 - bias) << 23);
  if (a < min_normal) {
    // Subnormal (or zero): a / 2^(1 - bias - mantissa) rounded to an integer, ties to even; the
    // scaling is by a power of two (exact) and leaves a value below 2^mantissa, whose sum with
    // 2^23 rounds it to an integer in round-to-nearest-even. The integer 2^mantissa (a rounded up
    // to the smallest normal) is that normal's encoding.
    const float scaled =
        a * bits_float(static_cast<std::uint32_t>(127 + bias - 1 + mantissa) << 23);
    const float q = (scaled + 8388608.0f) - 8388608.0f;
    return static_cast<std::uint32_t>(q);
  }
  // Normal: the exponent rebased, 23 - mantissa significand bits dropped with round to nearest
  // even; a carry into the exponent is the correct round-up.
  const int drop = 23 - mantissa;
  const std::uint32_t rebased = mag - (static_cast<std::uint32_t>(127 - bias) << 23);
  const std::uint32_t rounded =
      rebased + ((std::uint32_t{1} << (drop - 1)) - 1) + ((rebased >> drop) & 1u);
  return rounded >> drop;
}

}  // namespace detail

OSVS_HD std::uint8_t e4m3_bits_of(float x) {
  const std::uint32_t u = float_bits(x);
  const std::uint32_t sign = (u >> 24) & 0x80u;
  const std::uint32_t mag = u & 0x7fffffffu;
  if (is_nan(x) || bits_float(mag) > 464.0f) return static_cast<std::uint8_t>(sign | 0x7fu);
  return static_cast<std::uint8_t>(sign | detail::small_format_bits(mag, 7, 3));
}

OSVS_HD std::uint8_t e5m2_bits_of(float x) {
  const std::uint32_t u = float_bits(x);
  const std::uint32_t sign = (u >> 24) & 0x80u;
  const std::uint32_t mag = u & 0x7fffffffu;
  if (is_nan(x)) return static_cast<std::uint8_t>(sign | 0x7eu | ((u >> 21) & 1u));
  if (bits_float(mag) >= 61440.0f) return static_cast<std::uint8_t>(sign | 0x7cu);  // to +-inf
  return static_cast<std::uint8_t>(sign | detail::small_format_bits(mag, 15, 2));
}

OSVS_HD float float_of_e4m3_bits(std::uint8_t b) {
  const std::uint32_t sign = (b & 0x80u) ? 0x80000000u : 0u;
  const std::uint32_t exponent = (b >> 3) & 0xfu, mantissa = b & 0x7u;
  if (exponent == 0xf && mantissa == 0x7) return bits_float(sign | 0x7fc00000u);  // the NaN
  // A subnormal is mantissa * 2^-9, exact (an integer below 8 times a power of two).
  if (exponent == 0) return bits_float(sign | float_bits(static_cast<float>(mantissa) * 0x1p-9f));
  return bits_float(sign | ((exponent + 120u) << 23) | (mantissa << 20));  // bias 7 -> 127
}

OSVS_HD float float_of_e5m2_bits(std::uint8_t b) {
  const std::uint32_t sign = (b & 0x80u) ? 0x80000000u : 0u;
  const std::uint32_t exponent = (b >> 2) & 0x1fu, mantissa = b & 0x3u;
  if (exponent == 0x1f) return bits_float(sign | 0x7f800000u | (mantissa << 21));  // inf, NaN
  if (exponent == 0) return bits_float(sign | float_bits(static_cast<float>(mantissa) * 0x1p-16f));
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 21));  // bias 15 -> 127
}

}  // namespace osvs
