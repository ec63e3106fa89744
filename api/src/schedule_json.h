// A reduction order in regression files (the reduction kind's case and the combine kind's
// schedules): the partition, the chunks' slots, the merges as [dst, src] pairs and the root slot.
// The row it reduces is its kind's to write.
#pragma once

#include <nlohmann/json.hpp>

#include "osvs/kernels/cases.h"

namespace osvs::api {

/// h's chunk_offsets, slot_chunk, merges and root (not its row).
nlohmann::json schedule_json(const HarnessCase& h);

/// Those fields of `in` into h (its row untouched); throws std::runtime_error naming a missing
/// or malformed field.
void read_schedule(const nlohmann::json& in, HarnessCase& h);

}  // namespace osvs::api
