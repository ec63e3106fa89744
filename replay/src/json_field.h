// JsonField: a JSON value together with its path from the document root, so that every check on it
// can throw a RegressionFormatError that names the file and the exact field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace osvs::detail {

class JsonField {
 public:
  JsonField(const nlohmann::ordered_json& value, std::string path, const std::string& file)
      : value_(&value), path_(std::move(path)), file_(&file) {}

  /// Throws the format error for this field: "<file>: <path>: <problem>".
  [[noreturn]] void fail(const std::string& problem) const;

  /// The member `key` of this object; fails if this is not an object or the key is missing.
  JsonField at(std::string_view key) const;
  /// Whether this object has the member `key`; fails if this is not an object.
  bool has(std::string_view key) const;
  /// Fails if this object has a member not listed in `known` (catches misspelt fields).
  void only_keys(std::initializer_list<std::string_view> known) const;
  /// The elements of this array; fails if this is not an array.
  std::vector<JsonField> elements() const;

  float as_float() const;                       ///< a hex float string that is exactly a float
  double as_double() const;                     ///< a hex float string
  std::string as_string() const;                ///< a JSON string
  bool as_bool() const;                         ///< a JSON boolean
  std::int64_t as_int() const;                  ///< a JSON integer
  std::int32_t as_int32() const;                ///< a JSON integer within int32
  std::vector<float> as_floats() const;         ///< an array of hex float strings
  std::vector<std::int64_t> as_ints() const;    ///< an array of integers
  std::vector<std::int32_t> as_int32s() const;  ///< an array of int32 integers

  const std::string& path() const { return path_; }

 private:
  const nlohmann::ordered_json* value_;
  std::string path_;
  const std::string* file_;
};

}  // namespace osvs::detail
