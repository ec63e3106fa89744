#include "osvs/kernels/dtype.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "osvs/kernels/enum_names.h"

namespace osvs {
namespace {

std::uint32_t bits_of(float x) {
  return std::bit_cast<std::uint32_t>(x);
}

float float_of(std::uint32_t u) {
  return std::bit_cast<float>(u);
}

}  // namespace

namespace {
constexpr EnumName<DType> kDTypeNames[] = {
    {DType::F32, "f32"}, {DType::BF16, "bf16"}, {DType::F16, "f16"}};
}  // namespace

const char* to_string(DType t) {
  return name_in(kDTypeNames, t);
}

std::optional<DType> parse_dtype(std::string_view s) {
  return value_in(kDTypeNames, s);
}

std::size_t size_of(DType t) {
  return t == DType::F32 ? 4 : 2;
}

int precision_of(DType t) {
  return t == DType::F32 ? 24 : t == DType::BF16 ? 8 : 11;
}

int min_exponent_of(DType t) {
  return t == DType::F16 ? -14 : -126;
}

float max_finite_of(DType t) {
  switch (t) {
    case DType::F32:
      return std::numeric_limits<float>::max();
    case DType::BF16:
      return float_of(0x7f7f0000u);
    case DType::F16:
      return 65504.0f;
  }
  return 0;
}

std::uint16_t to_bf16_bits(float x) {
  const std::uint32_t u = bits_of(x);
  if (std::isnan(x)) return static_cast<std::uint16_t>((u >> 16) | 0x40u);  // keep it a NaN
  // Round to nearest even on the low 16 bits; a carry into the exponent is the correct rounding
  // (up to the next binade, or to inf past the largest finite bf16).
  const std::uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>((u + rounding) >> 16);
}

float from_bf16_bits(std::uint16_t b) {
  return float_of(static_cast<std::uint32_t>(b) << 16);
}

std::uint16_t to_f16_bits(float x) {
  const std::uint32_t u = bits_of(x);
  const std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  if (std::isnan(x)) return static_cast<std::uint16_t>(sign | 0x7e00u | ((u >> 13) & 0x1ffu));
  const float a = std::fabs(x);
  if (a >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (a < 0x1p-14f) {
    // Subnormal (or zero) result: a / 2^-24 rounded to an integer, ties to even; exact in float
    // since a < 2^-14 has at most 24 significant bits and the scaling is a power of two.
    const float q = std::nearbyint(a * 0x1p24f);  // default rounding mode: to nearest even
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(q));
  }
  // Normal: drop 13 significand bits with round to nearest even; a carry is a correct round-up.
  const std::uint32_t mag = u & 0x7fffffffu;
  const std::uint32_t rebased = mag - (112u << 23);  // exponent bias 127 -> 15
  const std::uint32_t rounded = rebased + 0xfffu + ((rebased >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | (rounded >> 13));
}

float from_f16_bits(std::uint16_t b) {
  const float sign = (b & 0x8000u) ? -1.0f : 1.0f;
  const int exponent = (b >> 10) & 0x1f;
  const int mantissa = b & 0x3ff;
  if (exponent == 0x1f) {
    if (mantissa == 0) return sign * std::numeric_limits<float>::infinity();
    return float_of((b & 0x8000u ? 0x80000000u : 0u) | 0x7f800000u |
                    (static_cast<std::uint32_t>(mantissa) << 13));
  }
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
  return sign * std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
}

float round_to(DType t, float x) {
  switch (t) {
    case DType::F32:
      return x;
    case DType::BF16:
      return from_bf16_bits(to_bf16_bits(x));
    case DType::F16:
      return from_f16_bits(to_f16_bits(x));
  }
  return x;
}

void store_as(DType t, const float* src, void* dst, std::int64_t n) {
  if (n <= 0) return;  // an empty row may come with null pointers
  if (t == DType::F32) {
    std::memcpy(dst, src, static_cast<std::size_t>(n) * sizeof(float));
    return;
  }
  auto* out = static_cast<std::uint16_t*>(dst);
  for (std::int64_t i = 0; i < n; ++i)
    out[i] = t == DType::BF16 ? to_bf16_bits(src[i]) : to_f16_bits(src[i]);
}

void load_from(DType t, const void* src, float* dst, std::int64_t n) {
  if (n <= 0) return;
  if (t == DType::F32) {
    std::memcpy(dst, src, static_cast<std::size_t>(n) * sizeof(float));
    return;
  }
  const auto* in = static_cast<const std::uint16_t*>(src);
  for (std::int64_t i = 0; i < n; ++i)
    dst[i] = t == DType::BF16 ? from_bf16_bits(in[i]) : from_f16_bits(in[i]);
}

}  // namespace osvs
