// The JSON helpers of the API's regression files (row_regression.cpp, merge_regression.cpp):
// floats as exact hex floats, required fields with errors naming them, content ids.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace osvs::api {

/// v as an array of exact hex floats.
nlohmann::json floats(const std::vector<float>& v);

/// An array of exact hex floats; throws std::runtime_error naming `field` otherwise.
std::vector<float> floats_of(const nlohmann::json& a, const std::string& field);

/// j[name]; throws std::runtime_error naming a missing field.
const nlohmann::json& field(const nlohmann::json& j, const char* name);

/// j[name] as T; throws std::runtime_error naming the field.
template <class T>
T get(const nlohmann::json& j, const char* name) {
  try {
    return field(j, name).get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("field '") + name + "': " + e.what());
  }
}

/// 12 hex digits of FNV-1a 64 of `text`: the same on every platform (kernels/stable_hash.h).
std::string content_id(const std::string& text);

/// "<UTC date>, osvs <commit>, <found_by>": the provenance line of a new record.
std::string provenance(const std::string& found_by);

/// The text of a file; throws std::runtime_error when it cannot be read.
std::string read_text(const std::string& path);

}  // namespace osvs::api
