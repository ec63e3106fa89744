#include "osvs/api/row_regression.h"

#include <cstdint>
#include <nlohmann/json.hpp>

#include "json_values.h"
#include "osvs/replay/hex_float.h"

namespace osvs {
namespace {

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
  return api::regression_json("osvs_row_regression", r, input_json(r.input)).dump(1) + "\n";
}

RowRegression row_regression_from_json(const std::string& text) {
  RowRegression r;
  const json in = api::parse_regression(text, "osvs_row_regression", "row", r);
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
  return api::write_regression_file(root, r.kernel, r.law, input_json(r.input), to_json(r));
}

std::vector<std::pair<std::filesystem::path, RowRegression>> read_row_regressions(
    const std::filesystem::path& root, const std::string& kernel) {
  return api::read_regression_files<RowRegression>(root, kernel, row_regression_from_json);
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
