// The reduction kind's case in regression files: the row as exact hex floats, the partition,
// the chunks' slots, the merges as [dst, src] pairs and the root slot.
#include "case_json.h"
#include "json_values.h"

namespace osvs::api {

using nlohmann::json;

json case_json(const ReductionCase& c) {
  const HarnessCase& h = c.schedule;
  json merges = json::array();
  for (const Merge& m : h.merges) merges.push_back({m.dst, m.src});
  return {{"row", floats(h.row)},
          {"chunk_offsets", h.chunk_offsets},
          {"slot_chunk", h.slot_chunk},
          {"merges", merges},
          {"root", h.root}};
}

void read_case(const json& in, ReductionCase& c) {
  HarnessCase& h = c.schedule;
  h.row = floats_of(field(in, "row"), "input.row");
  h.chunk_offsets = get<std::vector<std::int64_t>>(in, "chunk_offsets");
  h.slot_chunk = get<std::vector<std::int32_t>>(in, "slot_chunk");
  for (const auto& [dst, src] :
       get<std::vector<std::pair<std::int32_t, std::int32_t>>>(in, "merges"))
    h.merges.push_back(Merge{dst, src});
  h.root = get<std::int32_t>(in, "root");
  if (const std::string why = schedule_problem(h); !why.empty())
    throw std::runtime_error("field 'input': " + why);
}

}  // namespace osvs::api
