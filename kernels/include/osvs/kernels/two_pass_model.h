// The 2-pass kernel's order (cuda/softmax_kernels.cuh, online_two_pass) on the host: the CPU model
// of one combine operator under one schedule policy (block_schedule_policy.h), the policy the
// device kernel is instantiated with.
#pragma once

#include <cstdint>

#include "osvs/kernels/algebras.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/cases.h"

namespace osvs {

/// Outputs and row states of a validated batch: each row's block reduction under Schedule
/// (model_block_reduce_detail), then pass 2 writes Op::output(x, s) with s the row's state or,
/// where Schedule divides by the warp's state, the state of the warp whose thread writes x.
template <class Op, class Schedule = BlockSchedule>
void model_two_pass_rows(const SoftmaxBatch& b, SoftmaxResult& r) {
  const OnlineAlg<Op> alg;
  for (std::int64_t i = 0; i < b.rows; ++i) {
    const float* row = b.x.data() + i * b.cols;
    const auto red = model_block_reduce_detail<Schedule>(row, b.cols, b.block, alg);
    r.row_state[i] = red.row;
    for (std::int64_t j = 0; j < b.cols; ++j) {
      const int warp = static_cast<int>(j % b.block) / kWarpSize;
      const State s = Schedule::kDivideByRowState ? red.row : red.warp[warp];
      r.y[i * b.cols + j] = Op::output(row[j], s);
    }
  }
}

}  // namespace osvs
