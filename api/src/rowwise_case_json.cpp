// The row-wise kind's case in regression files: each input's rows as exact hex floats (a shared
// array's one row; an index array's integers likewise), eps, the permutation, the subject's
// batch position, the arrays' paddings, the shift, the scale exponent, label_smoothing,
// ignore_index and k (eps, shift and scale_exponent absent in files written before the row
// reductions: 0; the last three before cross-entropy and top-k: 0, -100, 0).
#include "case_json.h"
#include "json_values.h"

namespace osvs::api {

using nlohmann::json;

json case_json(const RowwiseCase& c) {
  json inputs = json::array();
  for (const Rows& a : c.inputs) {
    json rows = json::array();
    for (const auto& r : a) rows.push_back(floats(r));
    inputs.push_back(rows);
  }
  return {{"inputs", inputs},
          {"eps", floats({c.eps})[0]},
          {"permutation", c.permutation},
          {"batch_position", c.batch_position},
          {"pads", c.pads},
          {"shift", floats({c.shift})[0]},
          {"scale_exponent", c.scale_exponent},
          {"label_smoothing", floats({c.label_smoothing})[0]},
          {"ignore_index", c.ignore_index},
          {"k", c.k}};
}

namespace {

/// The hex float in[name], or 0 where the field is absent.
float optional_float(const json& in, const char* name) {
  if (!in.contains(name)) return 0;
  return floats_of(json::array({in[name]}), std::string("input.") + name)[0];
}

}  // namespace

void read_case(const json& in, RowwiseCase& c) {
  for (const json& a : field(in, "inputs")) {
    Rows rows;
    for (const json& r : a) rows.push_back(floats_of(r, "input.inputs"));
    c.inputs.push_back(std::move(rows));
  }
  if (c.inputs.empty() || c.inputs[0].empty())
    throw std::runtime_error("field 'input.inputs': no array or no row");
  for (const Rows& a : c.inputs)
    if (a.size() != c.inputs[0].size() && a.size() != 1)
      throw std::runtime_error(
          "field 'input.inputs': arrays of different row counts (other than a shared one-row "
          "array)");
  c.eps = optional_float(in, "eps");
  c.shift = optional_float(in, "shift");
  c.scale_exponent = in.contains("scale_exponent") ? get<int>(in, "scale_exponent") : 0;
  c.permutation = get<std::vector<std::int64_t>>(in, "permutation");
  c.batch_position = get<std::int64_t>(in, "batch_position");
  c.pads = get<std::vector<std::int64_t>>(in, "pads");
  c.label_smoothing = optional_float(in, "label_smoothing");
  c.ignore_index = in.contains("ignore_index") ? get<std::int64_t>(in, "ignore_index") : -100;
  c.k = in.contains("k") ? get<std::int64_t>(in, "k") : 0;
}

}  // namespace osvs::api
