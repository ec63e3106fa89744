// The reduction kind's case in regression files: the row as exact hex floats, the partition,
// the chunks' slots, the merges as [dst, src] pairs and the root slot.
#include "case_json.h"
#include "json_values.h"
#include "schedule_json.h"

namespace osvs::api {

using nlohmann::json;

json case_json(const ReductionCase& c) {
  json out = schedule_json(c.schedule);
  out["row"] = floats(c.schedule.row);
  return out;
}

void read_case(const json& in, ReductionCase& c) {
  HarnessCase& h = c.schedule;
  h.row = floats_of(field(in, "row"), "input.row");
  read_schedule(in, h);
  if (const std::string why = schedule_problem(h); !why.empty())
    throw std::runtime_error("field 'input': " + why);
}

}  // namespace osvs::api
