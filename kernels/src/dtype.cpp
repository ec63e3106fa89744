#include "osvs/kernels/dtype.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "osvs/kernels/dtype_bits.h"
#include "osvs/kernels/enum_names.h"

namespace osvs {
namespace {

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
  return bf16_bits_of(x);
}

float from_bf16_bits(std::uint16_t b) {
  return float_of_bf16_bits(b);
}

std::uint16_t to_f16_bits(float x) {
  return f16_bits_of(x);
}

float from_f16_bits(std::uint16_t b) {
  return float_of_f16_bits(b);
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
