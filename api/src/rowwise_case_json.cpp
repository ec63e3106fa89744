// The row-wise kind's case in regression files: each input's rows as exact hex floats (by the
// op's array names), the permutation, the subject's batch position and the arrays' paddings.
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
          {"permutation", c.permutation},
          {"batch_position", c.batch_position},
          {"pads", c.pads}};
}

void read_case(const json& in, RowwiseCase& c) {
  for (const json& a : field(in, "inputs")) {
    Rows rows;
    for (const json& r : a) rows.push_back(floats_of(r, "input.inputs"));
    c.inputs.push_back(std::move(rows));
  }
  if (c.inputs.empty() || c.inputs[0].empty())
    throw std::runtime_error("field 'input.inputs': no array or no row");
  for (const Rows& a : c.inputs)
    if (a.size() != c.inputs[0].size())
      throw std::runtime_error("field 'input.inputs': arrays of different row counts");
  c.permutation = get<std::vector<std::int64_t>>(in, "permutation");
  c.batch_position = get<std::int64_t>(in, "batch_position");
  c.pads = get<std::vector<std::int64_t>>(in, "pads");
}

}  // namespace osvs::api
