// The combine kind's case in regression files: the states as [m, d] pairs of exact hex floats,
// the states' format, the rows, and the schedules (partition, the chunks' slots, the merges as
// [dst, src] pairs and the root slot; a schedule's row is rows[0]).
#include "case_json.h"
#include "json_values.h"
#include "schedule_json.h"

namespace osvs::api {

using nlohmann::json;

json case_json(const CombineCase& c) {
  json states = json::array();
  for (const State& s : c.states) states.push_back(floats({s.m, s.d}));
  json rows = json::array();
  for (const auto& row : c.rows) rows.push_back(floats(row));
  json schedules = json::array();
  for (const HarnessCase& h : c.schedules) schedules.push_back(schedule_json(h));
  return {{"states", states},
          {"state_format", to_string(c.state_format)},
          {"rows", rows},
          {"schedules", schedules}};
}

void read_case(const json& in, CombineCase& c) {
  for (const json& s : field(in, "states")) {
    const std::vector<float> md = floats_of(s, "input.states[]");
    if (md.size() != 2) throw std::runtime_error("field 'input.states[]': not an [m, d] pair");
    c.states.push_back(State{md[0], md[1]});
  }
  const auto format = parse_dtype(get<std::string>(in, "state_format"));
  if (!format || (*format != DType::F32 && *format != DType::BF16 && *format != DType::F16))
    throw std::runtime_error("field 'state_format': not f32, bf16 or f16");
  c.state_format = *format;
  for (const json& row : field(in, "rows")) c.rows.push_back(floats_of(row, "input.rows[]"));
  for (const json& s : field(in, "schedules")) {
    HarnessCase h;
    read_schedule(s, h);
    HarnessCase on_row = h;  // the schedule of rows[0], as the laws read it
    if (!c.rows.empty()) on_row.row = c.rows[0];
    if (const std::string why = schedule_problem(on_row); !why.empty())
      throw std::runtime_error("field 'input.schedules[]': " + why);
    c.schedules.push_back(std::move(h));
  }
}

}  // namespace osvs::api
