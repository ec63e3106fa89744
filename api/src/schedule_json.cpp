#include "schedule_json.h"

#include "json_values.h"

namespace osvs::api {

using nlohmann::json;

json schedule_json(const HarnessCase& h) {
  json merges = json::array();
  for (const Merge& m : h.merges) merges.push_back({m.dst, m.src});
  return {{"chunk_offsets", h.chunk_offsets},
          {"slot_chunk", h.slot_chunk},
          {"merges", merges},
          {"root", h.root}};
}

void read_schedule(const json& in, HarnessCase& h) {
  h.chunk_offsets = get<std::vector<std::int64_t>>(in, "chunk_offsets");
  h.slot_chunk = get<std::vector<std::int32_t>>(in, "slot_chunk");
  for (const auto& [dst, src] :
       get<std::vector<std::pair<std::int32_t, std::int32_t>>>(in, "merges"))
    h.merges.push_back(Merge{dst, src});
  h.root = get<std::int32_t>(in, "root");
}

}  // namespace osvs::api
