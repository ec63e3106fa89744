// Element types of a row kernel's input and output, and exact conversions between them and float.
//
// bf16 is binary32's upper half (8 significand bits, emin -126); fp16 is IEEE binary16 (11 bits,
// emin -14). Every bf16 and fp16 value is exactly a float, so rows are generated and judged as
// floats; float -> bf16 / fp16 rounds to nearest, ties to even, overflowing to +-inf and keeping
// NaN a NaN (its payload truncated, the quiet bit set).
//
// e4m3 and e5m2 are the fp8 formats (OCP's e4m3fn: bias 7, no inf, max 448, one NaN pattern;
// e5m2: bias 15, IEEE-like with inf and NaN, max 57344) in which an attention kernel may take K/V
// (docs/semantics.md §9, "fp8 K/V"); no kind takes them for values (declarations refuse them).
// Every fp8 value is exactly a float; float -> fp8 rounds to nearest, ties to even, OCP's
// non-saturating overflow (a magnitude past the largest finite value: NaN in e4m3, +-inf in e5m2;
// dtype_bits.h states the thresholds).
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

enum class DType { F32, BF16, F16, I32, I64, E4M3, E5M2 };

/// i32 and i64: the index types (no precision, exponent or largest finite value).
bool is_integer(DType t);

/// e4m3 and e5m2: the fp8 storage types of K/V (floating, but no kind's value type).
bool is_fp8(DType t);

const char* to_string(DType t);
std::optional<DType> parse_dtype(std::string_view s);

/// Bytes per element.
std::size_t size_of(DType t);

/// Significand bits, counting the implicit one (24, 8, 11; e4m3 4, e5m2 3);
/// std::invalid_argument for an index type, as for the two below.
int precision_of(DType t);

/// Exponent of the smallest normal number (-126, -126, -14; e4m3 -6, e5m2 -14).
int min_exponent_of(DType t);

/// Largest finite value of the type, as a float (e4m3 448, e5m2 57344).
float max_finite_of(DType t);

/// The bits of x rounded to the type (round to nearest, ties to even).
std::uint16_t to_bf16_bits(float x);
std::uint16_t to_f16_bits(float x);

/// The float value of a bf16 / fp16 bit pattern (exact).
float from_bf16_bits(std::uint16_t b);
float from_f16_bits(std::uint16_t b);

/// The same for the fp8 formats (dtype_bits.h: rounding, overflow, NaNs).
std::uint8_t to_e4m3_bits(float x);
std::uint8_t to_e5m2_bits(float x);
float from_e4m3_bits(std::uint8_t b);
float from_e5m2_bits(std::uint8_t b);

/// x rounded to the type, as a float (identity for F32; to the nearest integer, ties to even,
/// for an index type, NaN kept).
float round_to(DType t, float x);

/// Whether x is exactly a value of the floating type t (F32, BF16, F16, E4M3, E5M2), its bits
/// kept: a NaN is one when its payload fits t's significand (the float's low 24 - precision_of(t)
/// significand bits clear), for e4m3, whose one NaN carries no payload, when it is the quiet NaN
/// of its sign that e4m3's NaN gives. std::invalid_argument for an index type.
bool is_value_of(DType t, float x);

/// Writes n floats into `dst` (an array of type t) and reads them back. An index type takes
/// integers within its range and NaN (stored as the type's minimum: padding, never an index);
/// anything else is std::invalid_argument. An fp8 array is one byte an element.
void store_as(DType t, const float* src, void* dst, std::int64_t n);
void load_from(DType t, const void* src, float* dst, std::int64_t n);

}  // namespace osvs
