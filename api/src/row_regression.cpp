#include "osvs/api/row_regression.h"

#include <chrono>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "json_values.h"
#include "osvs/replay/hex_float.h"

namespace osvs {
namespace {

using api::content_id;
using api::field;
using api::floats;
using api::floats_of;
using api::get;
using nlohmann::json;

json input_json(const RowCase& c) {
  json rows = json::array();
  for (const auto& r : c.rows) rows.push_back(floats(r));
  return {{"rows", rows},
          {"permutation", c.permutation},
          {"shift", format_hex_float(c.shift)},
          {"batch_position", c.batch_position},
          {"batch_rows", c.batch_rows},
          {"x_pad", c.layout.x_pad},
          {"y_pad", c.layout.y_pad}};
}

}  // namespace

std::string to_json(const RowRegression& r) {
  const json j = {{"osvs_row_regression", 1},
                  {"kernel", r.kernel},
                  {"law", r.law},
                  {"expect", r.expect_holds ? "holds" : "violates"},
                  {"note", r.note},
                  {"found", r.found},
                  {"explanation", r.explanation},
                  {"input", input_json(r.input)}};
  return j.dump(1) + "\n";
}

RowRegression row_regression_from_json(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || get<int>(j, "osvs_row_regression") != 1)
    throw std::runtime_error("not an osvs row regression file (version 1)");
  RowRegression r;
  r.kernel = get<std::string>(j, "kernel");
  r.law = get<std::string>(j, "law");
  const auto expect = get<std::string>(j, "expect");
  if (expect != "holds" && expect != "violates")
    throw std::runtime_error("field 'expect': '" + expect + "' (holds or violates)");
  r.expect_holds = expect == "holds";
  r.note = get<std::string>(j, "note");
  r.found = get<std::string>(j, "found");
  r.explanation = get<std::string>(j, "explanation");
  const json& in = field(j, "input");
  for (const json& row : field(in, "rows")) r.input.rows.push_back(floats_of(row, "input.rows"));
  r.input.permutation = get<std::vector<std::int64_t>>(in, "permutation");
  const auto shift = floats_of(json::array({field(in, "shift")}), "input.shift");
  r.input.shift = shift[0];
  r.input.batch_position = get<std::int64_t>(in, "batch_position");
  r.input.batch_rows = get<std::int64_t>(in, "batch_rows");
  r.input.layout.x_pad = get<std::int64_t>(in, "x_pad");
  r.input.layout.y_pad = get<std::int64_t>(in, "y_pad");
  if (!find_row_law(r.law)) throw std::runtime_error("field 'law': no law named '" + r.law + "'");
  return r;
}

std::filesystem::path write_row_regression(const RowRegression& r,
                                           const std::filesystem::path& root) {
  const std::string id = content_id(r.kernel + "/" + r.law + "/" + input_json(r.input).dump());
  const auto dir = root / r.kernel;
  std::filesystem::create_directories(dir);
  const auto path = dir / (r.law + "-" + id + ".json");
  if (std::filesystem::exists(path)) return path;
  std::ofstream out(path);
  out << to_json(r);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  return path;
}

std::vector<std::pair<std::filesystem::path, RowRegression>> read_row_regressions(
    const std::filesystem::path& root, const std::string& kernel) {
  std::vector<std::pair<std::filesystem::path, RowRegression>> out;
  const auto dir = root / kernel;
  if (!std::filesystem::is_directory(dir)) return out;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    try {
      out.emplace_back(f, row_regression_from_json(text.str()));
    } catch (const std::exception& e) {
      throw std::runtime_error(f.string() + ": " + e.what());
    }
  }
  return out;
}

std::string replay_row_regression(const RowKernel& k, const RowRegression& r) {
  const RowLaw* law = find_row_law(r.law);
  if (!law) return "no law named '" + r.law + "'";
  const Verdict v = law->check(k, r.input);
  if (is_not_judged(v)) return "the law could not judge the case: " + v.explanation;
  if (v.holds() == r.expect_holds) return "";
  return r.expect_holds ? "the law fails again: " + v.explanation
                        : "the documented defect no longer shows (the law holds): update the "
                          "file's expectation if the kernel was fixed";
}

std::string row_provenance(const std::string& found_by) {
  return api::provenance(found_by);
}

}  // namespace osvs
