#include <cstdint>

#include "case_json.h"
#include "json_values.h"

namespace osvs::api {

using nlohmann::json;

json case_json(const RowCase& c) {
  json rows = json::array();
  for (const auto& r : c.rows) rows.push_back(floats(r));
  return {{"rows", rows},
          {"permutation", c.permutation},
          {"shift", floats({c.shift})[0]},
          {"batch_position", c.batch_position},
          {"batch_rows", c.batch_rows},
          {"x_pad", c.layout.x_pad},
          {"y_pad", c.layout.y_pad}};
}

void read_case(const json& in, RowCase& c) {
  for (const json& row : field(in, "rows")) c.rows.push_back(floats_of(row, "input.rows"));
  c.permutation = get<std::vector<std::int64_t>>(in, "permutation");
  c.shift = floats_of(json::array({field(in, "shift")}), "input.shift")[0];
  c.batch_position = get<std::int64_t>(in, "batch_position");
  c.batch_rows = get<std::int64_t>(in, "batch_rows");
  c.layout.x_pad = get<std::int64_t>(in, "x_pad");
  c.layout.y_pad = get<std::int64_t>(in, "y_pad");
}

}  // namespace osvs::api
