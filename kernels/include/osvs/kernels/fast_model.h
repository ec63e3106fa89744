// The CPU model of the fast kernel: fast_schedule.h's order replayed on the host in floats, under
// a schedule policy (fast_schedule_policy.h), the one the device kernels are instantiated with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/fast_schedule.h"

namespace osvs {

/// Outputs and row states of the fast kernel under Schedule for a validated batch: each part's
/// chunk state, the cross-block merge and the outputs in the order the device uses, with the
/// same hardened combine and exp.
template <class Schedule = FastSchedule>
void fast_model_rows(const SoftmaxBatch& b, SoftmaxResult& r) {
  const FastPlan p = fast_plan(b.cols);
  const std::int64_t loaded_end = fast_loaded_end<Schedule>(b.cols);
  for (std::int64_t i = 0; i < b.rows; ++i) {
    const float* row = b.x.data() + i * b.cols;
    float* out = r.y.data() + i * b.cols;
    const std::vector<FastPart<State>> parts =
        model_fast_row<Schedule>(row, b.cols, FastFloatAlg{});
    r.row_state[static_cast<std::size_t>(i)] = parts.front().row;
    std::vector<float> scale(parts.size());
    for (std::size_t c = 0; c < parts.size(); ++c)
      scale[c] = fast_part_scale(parts[c].m, parts[c].row);
    for (std::int64_t j = 0; j < b.cols; ++j) {
      const float x = j < loaded_end ? row[j] : -__builtin_huge_valf();  // what the thread holds
      const auto c = static_cast<std::size_t>(j / p.chunk_span());       // its part
      out[j] = fast_output(x, parts[c].m, scale[c]);
    }
  }
}

}  // namespace osvs
