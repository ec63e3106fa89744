// A batch of harness cases (cases.h HarnessCase) flattened into the shared arrays the device
// harness reads (cuda/combine_kernels.cuh harness_kernel): every
// case's row, chunk offsets, slot chunks and merges appended to one array each, and a
// FlatHarnessCase per case holding where its parts begin. Written once, for the combine
// executor's harness and the reduction kind's device runner.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/cases.h"

namespace osvs {

/// Where one case's parts begin in the batch's shared arrays.
struct FlatHarnessCase {
  std::int64_t row_begin;
  std::int64_t chunk_begin;  ///< into chunk states; its num_chunks + 1 offsets begin at
                             ///< chunk_begin + (the case's index), one extra offset a case
  std::int64_t slot_begin;   ///< into slot_chunk and slots
  std::int64_t merge_begin;
  std::int32_t num_chunks;
  std::int32_t num_slots;
  std::int32_t num_merges;
  std::int32_t root;
};

struct FlatHarnessBatch {
  std::vector<float> values;
  std::vector<std::int64_t> chunk_offsets;
  std::vector<std::int32_t> slot_chunk;
  std::vector<Merge> merges;
  std::vector<FlatHarnessCase> cases;
  std::int64_t num_chunks = 0;  ///< chunk states the batch needs
};

inline FlatHarnessBatch flatten(const std::vector<HarnessCase>& batch) {
  FlatHarnessBatch f;
  for (const HarnessCase& c : batch) {
    FlatHarnessCase d{};
    d.row_begin = static_cast<std::int64_t>(f.values.size());
    d.chunk_begin = f.num_chunks;
    d.slot_begin = static_cast<std::int64_t>(f.slot_chunk.size());
    d.merge_begin = static_cast<std::int64_t>(f.merges.size());
    d.num_chunks = static_cast<std::int32_t>(c.chunk_offsets.size() - 1);
    d.num_slots = static_cast<std::int32_t>(c.slot_chunk.size());
    d.num_merges = static_cast<std::int32_t>(c.merges.size());
    d.root = c.root;
    f.values.insert(f.values.end(), c.row.begin(), c.row.end());
    f.chunk_offsets.insert(f.chunk_offsets.end(), c.chunk_offsets.begin(), c.chunk_offsets.end());
    f.slot_chunk.insert(f.slot_chunk.end(), c.slot_chunk.begin(), c.slot_chunk.end());
    f.merges.insert(f.merges.end(), c.merges.begin(), c.merges.end());
    f.num_chunks += d.num_chunks;
    f.cases.push_back(d);
  }
  return f;
}

}  // namespace osvs
