// Element types of a row kernel's input and output, and exact conversions between them and float.
//
// bf16 is binary32's upper half (8 significand bits, emin -126); fp16 is IEEE binary16 (11 bits,
// emin -14). Every bf16 and fp16 value is exactly a float, so rows are generated and judged as
// floats; float -> bf16 / fp16 rounds to nearest, ties to even, overflowing to +-inf and keeping
// NaN a NaN (its payload truncated, the quiet bit set).
//
// i32 and i64 are the index arrays of the row-wise kind (a cross-entropy's targets, an argmax's
// or a top-k's indices). Their values are integers below 2^24 in magnitude (rows are at most
// 2^24 elements long), which a float holds exactly, so they travel through the same float rows;
// store_as refuses a value that is not an integer of the type, load_from rounds an integer past
// 2^24 to the nearest float (such an index lies outside every row either way).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace osvs {

enum class DType { F32, BF16, F16, I32, I64 };

/// i32 and i64: the index types (no precision, exponent or largest finite value).
bool is_integer(DType t);

const char* to_string(DType t);
std::optional<DType> parse_dtype(std::string_view s);

/// Bytes per element.
std::size_t size_of(DType t);

/// Significand bits, counting the implicit one (24, 8, 11); std::invalid_argument for an index
/// type, as for the two below.
int precision_of(DType t);

/// Exponent of the smallest normal number (-126, -126, -14).
int min_exponent_of(DType t);

/// Largest finite value of the type, as a float.
float max_finite_of(DType t);

/// The bits of x rounded to the type (round to nearest, ties to even).
std::uint16_t to_bf16_bits(float x);
std::uint16_t to_f16_bits(float x);

/// The float value of a bf16 / fp16 bit pattern (exact).
float from_bf16_bits(std::uint16_t b);
float from_f16_bits(std::uint16_t b);

/// x rounded to the type, as a float (identity for F32; to the nearest integer, ties to even,
/// for an index type, NaN kept).
float round_to(DType t, float x);

/// Whether x is exactly a value of the floating type t (F32, BF16, F16), its bits kept: a NaN is
/// one when its payload fits t's significand (the float's low 24 - precision_of(t) significand
/// bits clear). std::invalid_argument for an index type.
bool is_value_of(DType t, float x);

/// Writes n floats into `dst` (an array of type t) and reads them back. An index type takes
/// integers within its range and NaN (stored as the type's minimum: padding, never an index);
/// anything else is std::invalid_argument.
void store_as(DType t, const float* src, void* dst, std::int64_t n);
void load_from(DType t, const void* src, float* dst, std::int64_t n);

}  // namespace osvs
