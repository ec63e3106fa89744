#include "osvs/kernels/dtype.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "osvs/kernels/dtype_bits.h"
#include "osvs/kernels/enum_names.h"
#include "osvs/kernels/hex.h"

namespace osvs {
namespace {
constexpr EnumName<DType> kDTypeNames[] = {
    {DType::F32, "f32"}, {DType::BF16, "bf16"}, {DType::F16, "f16"},  {DType::I32, "i32"},
    {DType::I64, "i64"}, {DType::E4M3, "e4m3"}, {DType::E5M2, "e5m2"}};

/// A type's format: bytes per element and, for a floating type, its precision (significand bits
/// with the implicit one), the exponent of its smallest normal number and its largest finite
/// value (dtype.h; 0 for the index types, which require_float_type keeps from being asked).
struct Format {
  DType type;
  std::size_t size;
  int precision, min_exponent;
  float max_finite;
};

constexpr Format kFormats[] = {
    {DType::F32, 4, 24, -126, std::numeric_limits<float>::max()},
    {DType::BF16, 2, 8, -126, std::bit_cast<float>(0x7f7f0000u)},  // (2 - 2^-7) 2^127
    {DType::F16, 2, 11, -14, 65504.0f},
    {DType::I32, 4, 0, 0, 0.0f},
    {DType::I64, 8, 0, 0, 0.0f},
    {DType::E4M3, 1, 4, -6, 448.0f},
    {DType::E5M2, 1, 3, -14, 57344.0f}};

/// t's row of kFormats; a value outside the enumeration has a row of zeros.
Format format_of(DType t) {
  for (const Format& f : kFormats)
    if (f.type == t) return f;
  return {t, 0, 0, 0, 0.0f};
}

void require_float_type(DType t, const char* what) {
  if (is_integer(t))
    throw std::invalid_argument(std::string(what) + " of the index type " + to_string(t) +
                                ": it is not a floating type");
}

/// v stored as an integer of type T: NaN as T's minimum (padding), an integer within T's range
/// as itself, anything else refused.
template <class T>
T integer_of(float v) {
  if (std::isnan(v)) return std::numeric_limits<T>::min();
  if (!(std::trunc(v) == v) || !(v >= static_cast<float>(std::numeric_limits<T>::min())) ||
      !(v < -static_cast<float>(std::numeric_limits<T>::min())))
    throw std::invalid_argument("an index array takes integers of its type, not " + hex(v));
  return static_cast<T>(v);
}

/// How an element of a type lies in memory: its word, the float's word (its bits in the type,
/// to_bf16_bits and the like, or integer_of for an index type) and the word's float (exact).
template <class Word>
struct Storage {
  Word (*to_word)(float);
  float (*from_word)(Word);
};

template <class T>
float float_of(T v) {
  return static_cast<float>(v);
}

float same_float(float x) {
  return x;
}

/// use(Storage<Word>{...}) with t's word and conversions: the one place store_as and load_from
/// learn how a type is laid out.
template <class Use>
void with_storage(DType t, Use&& use) {
  switch (t) {
    case DType::F32:
      return use(Storage<float>{same_float, same_float});
    case DType::BF16:
      return use(Storage<std::uint16_t>{to_bf16_bits, from_bf16_bits});
    case DType::F16:
      return use(Storage<std::uint16_t>{to_f16_bits, from_f16_bits});
    case DType::I32:
      return use(Storage<std::int32_t>{integer_of<std::int32_t>, float_of<std::int32_t>});
    case DType::I64:
      return use(Storage<std::int64_t>{integer_of<std::int64_t>, float_of<std::int64_t>});
    case DType::E4M3:
      return use(Storage<std::uint8_t>{to_e4m3_bits, from_e4m3_bits});
    case DType::E5M2:
      return use(Storage<std::uint8_t>{to_e5m2_bits, from_e5m2_bits});
  }
  throw std::invalid_argument("store_as / load_from: not a DType (" +
                              std::to_string(static_cast<int>(t)) + ")");
}
}  // namespace

bool is_integer(DType t) {
  return t == DType::I32 || t == DType::I64;
}

bool is_fp8(DType t) {
  return t == DType::E4M3 || t == DType::E5M2;
}

const char* to_string(DType t) {
  return name_in(kDTypeNames, t);
}

std::optional<DType> parse_dtype(std::string_view s) {
  return value_in(kDTypeNames, s);
}

std::size_t size_of(DType t) {
  return format_of(t).size;
}

int precision_of(DType t) {
  require_float_type(t, "precision");
  return format_of(t).precision;
}

int min_exponent_of(DType t) {
  require_float_type(t, "minimum exponent");
  return format_of(t).min_exponent;
}

float max_finite_of(DType t) {
  require_float_type(t, "largest finite value");
  return format_of(t).max_finite;
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

std::uint8_t to_e4m3_bits(float x) {
  return e4m3_bits_of(x);
}

std::uint8_t to_e5m2_bits(float x) {
  return e5m2_bits_of(x);
}

float from_e4m3_bits(std::uint8_t b) {
  return float_of_e4m3_bits(b);
}

float from_e5m2_bits(std::uint8_t b) {
  return float_of_e5m2_bits(b);
}

float round_to(DType t, float x) {
  switch (t) {
    case DType::F32:
      return x;
    case DType::BF16:
      return from_bf16_bits(to_bf16_bits(x));
    case DType::F16:
      return from_f16_bits(to_f16_bits(x));
    case DType::E4M3:
      return from_e4m3_bits(to_e4m3_bits(x));
    case DType::E5M2:
      return from_e5m2_bits(to_e5m2_bits(x));
    case DType::I32:
    case DType::I64:
      return std::nearbyint(x);
  }
  return x;
}

bool is_value_of(DType t, float x) {
  require_float_type(t, "is_value_of");
  const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
  if (std::isnan(x) && t == DType::E4M3) return (u & 0x7fffffffu) == 0x7fc00000u;
  if (std::isnan(x)) return (u & ((1u << (24 - precision_of(t))) - 1)) == 0;
  return std::bit_cast<std::uint32_t>(round_to(t, x)) == u;
}

void store_as(DType t, const float* src, void* dst, std::int64_t n) {
  with_storage(t, [&]<class Word>(Storage<Word> storage) {
    for (std::int64_t i = 0; i < n; ++i) {  // none for an empty row, which may come with nulls
      const Word w = storage.to_word(src[i]);
      std::memcpy(static_cast<unsigned char*>(dst) + i * sizeof(Word), &w, sizeof(Word));
    }
  });
}

void load_from(DType t, const void* src, float* dst, std::int64_t n) {
  with_storage(t, [&]<class Word>(Storage<Word> storage) {
    for (std::int64_t i = 0; i < n; ++i) {
      Word w;
      std::memcpy(&w, static_cast<const unsigned char*>(src) + i * sizeof(Word), sizeof(Word));
      dst[i] = storage.from_word(w);
    }
  });
}

}  // namespace osvs
