// The fields of a state and of a result (osvs/api/state_fields.h): names of their types, their
// values and texts.
#include "osvs/api/state_fields.h"

#include <bit>

#include "osvs/kernels/enum_names.h"
#include "osvs/kernels/hex.h"

namespace osvs {
namespace {

constexpr EnumName<FieldType> kFieldTypeNames[] = {
    {FieldType::F32, "f32"}, {FieldType::F64, "f64"}, {FieldType::I8, "i8"},
    {FieldType::I16, "i16"}, {FieldType::I32, "i32"}, {FieldType::I64, "i64"},
    {FieldType::U8, "u8"},   {FieldType::U16, "u16"}, {FieldType::U32, "u32"},
    {FieldType::U64, "u64"}};

/// The signed value of an integer field's low `bits` bits.
std::int64_t sign_extended(std::uint64_t v, int bits) {
  if (bits == 64) return static_cast<std::int64_t>(v);
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  v &= (sign << 1) - 1;
  return static_cast<std::int64_t>(v ^ sign) - static_cast<std::int64_t>(sign);
}

bool is_signed(FieldType t) {
  return t == FieldType::I8 || t == FieldType::I16 || t == FieldType::I32 || t == FieldType::I64;
}

}  // namespace

int field_width(FieldType t) {
  switch (t) {
    case FieldType::I8:
    case FieldType::U8:
      return 8;
    case FieldType::I16:
    case FieldType::U16:
      return 16;
    case FieldType::F32:
    case FieldType::I32:
    case FieldType::U32:
      return 32;
    default:
      return 64;
  }
}

const char* to_string(FieldType t) {
  return name_in(kFieldTypeNames, t);
}

double field_value(FieldType t, std::uint64_t bits) {
  if (t == FieldType::F32) return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  if (t == FieldType::F64) return std::bit_cast<double>(bits);
  if (is_signed(t)) return static_cast<double>(sign_extended(bits, field_width(t)));
  const int w = field_width(t);
  return static_cast<double>(w == 64 ? bits : bits & ((std::uint64_t{1} << w) - 1));
}

std::string field_text(FieldType t, std::uint64_t bits) {
  if (t == FieldType::F32 || t == FieldType::F64) return readable(field_value(t, bits));
  if (is_signed(t)) return std::to_string(sign_extended(bits, field_width(t)));
  const int w = field_width(t);
  return std::to_string(w == 64 ? bits : bits & ((std::uint64_t{1} << w) - 1));
}

}  // namespace osvs
