// A row's elements in fixed chunks, for the per-element work of the oracle and the audit on long
// rows. The chunks depend on n only (never on the number of threads), so anything accumulated
// per chunk and merged in chunk order is the same in every run and on every machine.
#pragma once

#include <algorithm>
#include <cstdint>

#include "osvs/kernels/index_loop.h"

namespace osvs::oracle {

/// Elements per chunk.
inline constexpr std::int64_t kElementChunk = std::int64_t{1} << 16;

inline std::int64_t element_chunk_count(std::int64_t n) {
  return (n + kElementChunk - 1) / kElementChunk;
}

/// body(begin, end) for each chunk [begin, end) of [0, n), on `loops` when given.
template <class Body>
void run_element_chunks(const IndexLoop* loops, std::int64_t n, const Body& body) {
  run_indices(loops, element_chunk_count(n), [&](std::int64_t chunk) {
    const std::int64_t begin = chunk * kElementChunk;
    body(begin, std::min(n, begin + kElementChunk));
  });
}

}  // namespace osvs::oracle
