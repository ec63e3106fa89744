// Loops whose iterations are independent, which a caller may spread over threads: the CPU model's
// and the bounds' per-thread stride loops (block_schedule.h), and the oracle's and the audit's
// per-element work on one long row. Every iteration writes only its own slots, so the result is
// the same bits whichever thread runs which index, and whether any runner is given at all.
#pragma once

#include <cstdint>
#include <functional>

namespace osvs {

/// Runs body(i) once for every i in [0, count), in any order, possibly concurrently; returns when
/// all have run (an exception thrown by a body is rethrown).
using IndexLoop =
    std::function<void(std::int64_t count, const std::function<void(std::int64_t)>& body)>;

/// body(i) for i in [0, count): on `runner` when there is one, else in order on this thread.
template <class Body>
void run_indices(const IndexLoop* runner, std::int64_t count, const Body& body) {
  if (runner) {
    (*runner)(count, std::function<void(std::int64_t)>(body));
    return;
  }
  for (std::int64_t i = 0; i < count; ++i) body(i);
}

}  // namespace osvs
