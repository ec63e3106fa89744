#include "json_values.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include "osvs/build_stamp.h"
#include "osvs/kernels/stable_hash.h"
#include "osvs/replay/hex_float.h"
#include "osvs/replay/regression.h"

namespace osvs::api {

using nlohmann::json;

json floats(const std::vector<float>& v) {
  json a = json::array();
  for (float x : v) a.push_back(format_hex_float(x));
  return a;
}

std::vector<float> floats_of(const json& a, const std::string& field) {
  if (!a.is_array()) throw std::runtime_error(field + ": expected an array of hex floats");
  std::vector<float> v;
  for (const json& e : a) {
    const auto x = e.is_string() ? parse_hex_float(e.get<std::string>()) : std::nullopt;
    if (!x) throw std::runtime_error(field + ": '" + e.dump() + "' is not an exact hex float");
    v.push_back(*x);
  }
  return v;
}

const json& field(const json& j, const char* name) {
  if (!j.contains(name)) throw std::runtime_error(std::string("missing field '") + name + "'");
  return j.at(name);
}

std::string content_id(const std::string& text) {
  const std::uint64_t h = fnv1a64(text);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return std::string(buf, 12);
}

std::string provenance(const std::string& found_by) {
  return utc_now_iso8601() + ", osvs " + build_commit() + ", " + found_by;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::filesystem::path write_regression_file(const std::filesystem::path& root,
                                            const std::string& kernel, const std::string& law,
                                            const nlohmann::json& input, const std::string& text) {
  const std::string id = content_id(kernel + "/" + law + "/" + input.dump());
  const auto dir = root / kernel;
  std::filesystem::create_directories(dir);
  const auto path = dir / (law + "-" + id + ".json");
  write_file_once(path, text);  // concurrent writers of one case (pytest-xdist) write it once
  return path;
}

}  // namespace osvs::api
