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
    const std::vector<State> used = model_fast_row(row, b.cols, FastFloatAlg{}, mut);
    r.row_state[static_cast<std::size_t>(i)] = used.front();
    for (std::int64_t j = 0; j < b.cols; ++j) {
      const float x = j < full_end ? row[j] : -__builtin_huge_valf();  // what the thread holds
      out[j] = fast_output(x, used[static_cast<std::size_t>(j / p.chunk_span())]);  // its part's
    }
  }
}

}  // namespace osvs
