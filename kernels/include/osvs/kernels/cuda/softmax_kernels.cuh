// The softmax kernels under test: the seed's online 2-pass kernel (templated on the combine, the
// block size and the schedule policy) and the 3-pass safe-softmax baseline.
#pragma once

#include <cstdint>

#include "osvs/kernels/algebras.h"
#include "osvs/kernels/cuda/block_reduce.cuh"

namespace osvs::cuda {

/// One block per row. Pass 1 reduces the row's (m, d) in one read; pass 2 writes exp(x - m)/d.
/// Schedule (block_schedule_policy.h) is the order; its Index types the row offset `row * N` and
/// the column loops: int in the seed kernel as written (SeedBlockSchedule: wrong once M * N >=
/// 2^31, and its `col += BLOCK` overflows once N > INT32_MAX - BLOCK: validation refuses both),
/// int64 in the hardened variant (BlockSchedule).
template <class Op, int BLOCK, class Schedule = BlockSchedule>
__global__ void __launch_bounds__(BLOCK)
    online_two_pass(const float* __restrict__ input, float* __restrict__ output,
                    State* __restrict__ row_state, typename Schedule::Index M,
                    typename Schedule::Index N) {
  using Index = typename Schedule::Index;
  const Index row = blockIdx.x;
  if (row >= M) return;
  const float* row_in = input + row * N;
  float* row_out = output + row * N;
  const auto red = block_reduce<BLOCK, Schedule>(row_in, N, OnlineAlg<Op>{});
  if (threadIdx.x == 0) row_state[row] = red.row;
  const State s = Schedule::kDivideByRowState ? red.row : red.warp;
  for (Index col = threadIdx.x; col < N; col += BLOCK) row_out[col] = Op::output(row_in[col], s);
}

/// One block per row: a max pass, a sum-of-exp pass and a write pass, each reading the row.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    safe_three_pass(const float* __restrict__ input, float* __restrict__ output,
                    State* __restrict__ row_state, std::int64_t M, std::int64_t N) {
  const std::int64_t row = blockIdx.x;
  if (row >= M) return;
  const float* row_in = input + row * N;
  float* row_out = output + row * N;
  const float m = block_reduce<BLOCK>(row_in, N, MaxAlg{}).row;
  const float d = block_reduce<BLOCK>(row_in, N, SumExpAlg{m}).row;
  if (threadIdx.x == 0) row_state[row] = State{m, d};
  for (std::int64_t col = threadIdx.x; col < N; col += BLOCK)
    row_out[col] = softmax_output(row_in[col], m, d);
}

}  // namespace osvs::cuda
