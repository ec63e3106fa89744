// The JSON helpers of the API's regression files (regression.cpp, and each kind's case JSON):
// floats as exact hex floats, required fields with errors naming them, content ids.
#pragma once

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
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

// --- What every regression record (RowRegression, MergeRegression) shares: the fields kernel,
// law, expect_holds, note, found, explanation and input; the file <root>/<kernel>/<law>-<id>.json
// whose id is the content id of kernel, law and input.

/// The record as JSON: {format: 1, kernel, law, expect, note, found, explanation, input}.
template <class Regression>
nlohmann::json regression_json(const char* format, const Regression& r, nlohmann::json input) {
  return {{format, 1},
          {"kernel", r.kernel},
          {"law", r.law},
          {"expect", r.expect_holds ? "holds" : "violates"},
          {"note", r.note},
          {"found", r.found},
          {"explanation", r.explanation},
          {"input", std::move(input)}};
}

/// Parses a record's text and reads its shared fields into r; returns the JSON for the input.
/// Throws std::runtime_error for text that is not JSON, not of `format` version 1 (`what` names
/// the kind in the message) or without a shared field.
template <class Regression>
nlohmann::json parse_regression(const std::string& text, const char* format, const char* what,
                                Regression& r) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || get<int>(j, format) != 1)
    throw std::runtime_error(std::string("not an osvs ") + what + " regression file (version 1)");
  r.kernel = get<std::string>(j, "kernel");
  r.law = get<std::string>(j, "law");
  const auto expect = get<std::string>(j, "expect");
  if (expect != "holds" && expect != "violates")
    throw std::runtime_error("field 'expect': '" + expect + "' (holds or violates)");
  r.expect_holds = expect == "holds";
  r.note = get<std::string>(j, "note");
  r.found = get<std::string>(j, "found");
  r.explanation = get<std::string>(j, "explanation");
  return field(j, "input");
}

/// Writes `text`, the record of (kernel, law, input), to its file under root unless a file of
/// the same content is there; returns the path.
std::filesystem::path write_regression_file(const std::filesystem::path& root,
                                            const std::string& kernel, const std::string& law,
                                            const nlohmann::json& input, const std::string& text);

/// The records under root/kernel, by file name, each parsed by `parse` (text -> record); a file
/// that does not parse throws std::runtime_error naming it.
template <class Regression, class Parse>
std::vector<std::pair<std::filesystem::path, Regression>> read_regression_files(
    const std::filesystem::path& root, const std::string& kernel, const Parse& parse) {
  std::vector<std::pair<std::filesystem::path, Regression>> out;
  const auto dir = root / kernel;
  if (!std::filesystem::is_directory(dir)) return out;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    try {
      out.emplace_back(f, parse(read_text(f.string())));
    } catch (const std::exception& e) {
      throw std::runtime_error(f.string() + ": " + e.what());
    }
  }
  return out;
}

}  // namespace osvs::api
