// The fast kernel's CPU model: each chunk's state, the cross-block merge and the outputs in the
// order the device uses (fast_schedule.h), with the same hardened combine and exp.
#include "osvs/kernels/fast_model.h"

#include "osvs/kernels/fast_schedule.h"

namespace osvs {

void fast_model_rows(const SoftmaxBatch& b, SoftmaxResult& r) {
  FastModelMutation mut;
  mut.skip_tail = b.mutation == KernelMutation::FastSkippedTail;
  mut.lose_chunk = b.mutation == KernelMutation::FastLostChunk;
  mut.prefix_merge = b.mutation == KernelMutation::FastPrefixMerge;
  const FastPlan p = fast_plan(b.cols);
  const std::int64_t full_end = mut.skip_tail ? b.cols - b.cols % 4 : b.cols;
  for (std::int64_t i = 0; i < b.rows; ++i) {
    const float* row = b.x.data() + i * b.cols;
    float* out = r.y.data() + i * b.cols;
    const std::vector<FastPart<State>> parts = model_fast_row(row, b.cols, FastFloatAlg{}, mut);
    r.row_state[static_cast<std::size_t>(i)] = parts.front().row;
    std::vector<float> scale(parts.size());
    for (std::size_t c = 0; c < parts.size(); ++c)
      scale[c] = fast_part_scale(parts[c].m, parts[c].row);
    for (std::int64_t j = 0; j < b.cols; ++j) {
      const float x = j < full_end ? row[j] : -__builtin_huge_valf();  // what the thread holds
      const auto c = static_cast<std::size_t>(j / p.chunk_span());     // its part
      out[j] = fast_output(x, parts[c].m, scale[c]);
    }
  }
}

}  // namespace osvs
