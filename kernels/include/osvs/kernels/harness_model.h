// The combine harness's order, written once over an algebra (see block_schedule.h): each chunk's
// state by sequential lift from the initial value, then slot[dst] = slot[dst] (+) slot[src] for
// each merge in order. Used by the CPU executor and by the error-accounting bound of the oracle.
// An algebra whose lift takes the element's index in the row as well (argmax, a state reduction:
// api/state_reduction.h) is handed it.
#pragma once

#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/lift_with_index.h"

namespace osvs {

template <class Alg>
typename Alg::value_type model_chunk_state(const HarnessCase& c, std::size_t chunk,
                                           const Alg& alg) {
  auto v = alg.initial();
  for (std::int64_t j = c.chunk_offsets[chunk]; j < c.chunk_offsets[chunk + 1]; ++j)
    if constexpr (kLiftTakesIndex<Alg>)
      v = alg.combine(v, alg.lift(c.row[static_cast<std::size_t>(j)], j));
    else
      v = alg.combine(v, alg.lift(c.row[static_cast<std::size_t>(j)]));
  return v;
}

template <class Alg>
typename Alg::value_type model_harness_case(const HarnessCase& c, const Alg& alg,
                                            std::vector<typename Alg::value_type>* chunk_states) {
  const std::size_t chunks = c.chunk_offsets.size() - 1;
  std::vector<typename Alg::value_type> states(chunks);
  for (std::size_t k = 0; k < chunks; ++k) states[k] = model_chunk_state(c, k, alg);
  if (chunk_states) *chunk_states = states;
  std::vector<typename Alg::value_type> slot(c.slot_chunk.size());
  for (std::size_t s = 0; s < slot.size(); ++s) slot[s] = states[c.slot_chunk[s]];
  for (const Merge& m : c.merges) slot[m.dst] = alg.combine(slot[m.dst], slot[m.src]);
  return slot[c.root];
}

}  // namespace osvs
