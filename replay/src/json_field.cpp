#include "json_field.h"

#include <algorithm>
#include <limits>

#include "osvs/replay/format_error.h"
#include "osvs/replay/hex_float.h"

namespace osvs::detail {
namespace {

/// A short rendering of the offending value for error messages.
std::string shown(const nlohmann::ordered_json& v) {
  std::string s = v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

}  // namespace

void JsonField::fail(const std::string& problem) const {
  throw RegressionFormatError(*file_, path_, problem);
}

JsonField JsonField::at(std::string_view key) const {
  if (!value_->is_object()) fail("expected an object, got " + shown(*value_));
  const auto it = value_->find(key);
  const std::string child = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  if (it == value_->end()) throw RegressionFormatError(*file_, child, "missing field");
  return JsonField(*it, child, *file_);
}

bool JsonField::has(std::string_view key) const {
  if (!value_->is_object()) fail("expected an object, got " + shown(*value_));
  return value_->find(key) != value_->end();
}

void JsonField::only_keys(std::initializer_list<std::string_view> known) const {
  if (!value_->is_object()) fail("expected an object, got " + shown(*value_));
  for (const auto& item : value_->items())
    if (std::find(known.begin(), known.end(), item.key()) == known.end())
      fail("unknown field \"" + item.key() + "\"");
}

std::vector<JsonField> JsonField::elements() const {
  if (!value_->is_array()) fail("expected an array, got " + shown(*value_));
  std::vector<JsonField> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.emplace_back((*value_)[i], path_ + "[" + std::to_string(i) + "]", *file_);
  return out;
}

float JsonField::as_float() const {
  if (!value_->is_string()) fail("expected a hex float string, got " + shown(*value_));
  const auto v = parse_hex_float(value_->get_ref<const std::string&>());
  if (!v)
    fail("expected a hex float string exactly representable as a float, got " + shown(*value_));
  return *v;
}

double JsonField::as_double() const {
  if (!value_->is_string()) fail("expected a hex float string, got " + shown(*value_));
  const auto v = parse_hex_double(value_->get_ref<const std::string&>());
  if (!v) fail("expected a hex float string, got " + shown(*value_));
  return *v;
}

std::string JsonField::as_string() const {
  if (!value_->is_string()) fail("expected a string, got " + shown(*value_));
  return value_->get<std::string>();
}

bool JsonField::as_bool() const {
  if (!value_->is_boolean()) fail("expected true or false, got " + shown(*value_));
  return value_->get<bool>();
}

std::int64_t JsonField::as_int() const {
  if (value_->is_number_unsigned() &&
      value_->get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    fail("integer out of range, got " + shown(*value_));
  if (!value_->is_number_integer()) fail("expected an integer, got " + shown(*value_));
  return value_->get<std::int64_t>();
}

std::int32_t JsonField::as_int32() const {
  const std::int64_t v = as_int();
  if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max())
    fail("integer out of the 32-bit range, got " + shown(*value_));
  return static_cast<std::int32_t>(v);
}

std::vector<float> JsonField::as_floats() const {
  std::vector<float> out;
  for (const JsonField& e : elements()) out.push_back(e.as_float());
  return out;
}

std::vector<std::int64_t> JsonField::as_ints() const {
  std::vector<std::int64_t> out;
  for (const JsonField& e : elements()) out.push_back(e.as_int());
  return out;
}

std::vector<std::int32_t> JsonField::as_int32s() const {
  std::vector<std::int32_t> out;
  for (const JsonField& e : elements()) out.push_back(e.as_int32());
  return out;
}

}  // namespace osvs::detail
