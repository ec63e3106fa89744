// The fields of a user's state (and of its finalised result) as the reduction kind sees them:
// each field's name and type, and its bits. A state reduction declares its fields once,
//
//   struct State { float max; std::int64_t index; };
//   static constexpr auto kStateFields =
//       osvs::fields(osvs::field("max", &State::max), osvs::field("index", &State::index));
//
// and osvs compares states field by field, bit for bit (commutativity, identity), prints them
// (hex floats, decimal integers) and writes them to regression files, with no knowledge of the
// struct's layout or padding.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "osvs/kernels/hd.h"

namespace osvs {

/// The type of one field: binary32, binary64, or a signed / unsigned integer of 8 ... 64 bits.
enum class FieldType { F32, F64, I8, I16, I32, I64, U8, U16, U32, U64 };

/// "f32", "f64", "i8", ..., "u64".
const char* to_string(FieldType t);
/// The bits a field of type t holds: 8, 16, 32 or 64.
int field_width(FieldType t);

/// A field's name and type.
struct FieldSpec {
  std::string name;
  FieldType type = FieldType::F32;
  bool operator==(const FieldSpec&) const = default;
};

/// The FieldType of T (a compile error naming the allowed types for another).
template <class T>
constexpr FieldType field_type_of() {
  if constexpr (std::is_same_v<T, float>)
    return FieldType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return FieldType::F64;
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    constexpr int bits = 8 * static_cast<int>(sizeof(T));
    constexpr int at = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
    constexpr FieldType s[] = {FieldType::I8, FieldType::I16, FieldType::I32, FieldType::I64};
    constexpr FieldType u[] = {FieldType::U8, FieldType::U16, FieldType::U32, FieldType::U64};
    return std::is_signed_v<T> ? s[at] : u[at];
  } else {
    static_assert(std::is_same_v<T, float>,
                  "a state field is a float, a double or an integer of 8 ... 64 bits");
    return FieldType::F32;
  }
}

/// One declared field of a struct S: its name and the member.
template <class S, class T>
struct Field {
  const char* name;
  T S::*member;
};

template <class S, class T>
constexpr Field<S, T> field(const char* name, T S::*member) {
  return {name, member};
}

/// The fields of a struct, in order.
template <class... F>
constexpr std::tuple<F...> fields(F... f) {
  return {f...};
}

/// v's bits, zero-extended (an integer's two's complement bits of its own width), on the host
/// and the device.
template <class T>
OSVS_HD std::uint64_t field_bits(T v) {
  if constexpr (std::is_same_v<T, float>)
    return __builtin_bit_cast(std::uint32_t, v);
  else if constexpr (std::is_same_v<T, double>)
    return __builtin_bit_cast(std::uint64_t, v);
  else
    return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

/// The value of a field's bits as a double (exact for every type but integers beyond 2^53).
double field_value(FieldType t, std::uint64_t bits);

/// A field's value for a person: a float's readable() text, an integer in decimal.
std::string field_text(FieldType t, std::uint64_t bits);

/// The member type of a Field (for field_specs).
template <class S, class T>
T s_member(const Field<S, T>&);

/// The specs of a fields tuple.
template <class Tuple>
std::vector<FieldSpec> field_specs(const Tuple& fs) {
  std::vector<FieldSpec> out;
  std::apply(
      [&](const auto&... f) {
        (out.push_back({f.name, field_type_of<std::remove_cvref_t<decltype(s_member(f))>>()}), ...);
      },
      fs);
  return out;
}

/// Appends the bits of each field of s, in order.
template <class S, class Tuple>
void append_field_bits(const S& s, const Tuple& fs, std::vector<std::uint64_t>& out) {
  std::apply([&](const auto&... f) { (out.push_back(field_bits(s.*(f.member))), ...); }, fs);
}

/// The member of field I of the fields tuple `Fields`, a constant (device code reads it as one).
template <const auto& Fields, std::size_t I>
inline constexpr auto kFieldMember = std::get<I>(Fields).member;

/// Writes the bits of each field of s to out[0], out[1], ... in order, on the host and the device
/// (the device runner's layout: one 64-bit word a field).
template <const auto& Fields, class S, std::size_t... I>
OSVS_HD void store_field_bits(const S& s, std::uint64_t* out, std::index_sequence<I...>) {
  ((out[I] = field_bits(s.*(kFieldMember<Fields, I>))), ...);
}
template <const auto& Fields, class S>
OSVS_HD void store_field_bits(const S& s, std::uint64_t* out) {
  store_field_bits<Fields>(
      s, out, std::make_index_sequence<std::tuple_size_v<std::remove_cvref_t<decltype(Fields)>>>{});
}

}  // namespace osvs
