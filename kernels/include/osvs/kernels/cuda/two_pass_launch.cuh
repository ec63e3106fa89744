// Launching the 2-pass kernel at a block size known at run time: online_two_pass<Op, B, Schedule>.
// An operator's device launchers (combine_device_ops.cuh) and mutation/'s mutants of the kernel
// both launch through it, so both run the one template.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "osvs/kernels/cuda/block_dispatch.cuh"
#include "osvs/kernels/cuda/softmax_kernels.cuh"

namespace osvs::cuda {

/// Enqueues online_two_pass<Op, block, Schedule> on `stream`, one block a row, with the rows and
/// columns as Schedule::Index (validation keeps the seed's int batches inside int); false for an
/// unsupported block size. Launch errors are left for the caller to check.
template <class Op, class Schedule>
bool launch_online_two_pass(int block, const float* x, float* y, State* row_state,
                            std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  using Index = typename Schedule::Index;
  const dim3 grid(static_cast<unsigned>(rows));
  return with_block_size(block, [&](auto block_size) {
    constexpr int B = decltype(block_size)::value;
    online_two_pass<Op, B, Schedule><<<grid, B, 0, stream>>>(
        x, y, row_state, static_cast<Index>(rows), static_cast<Index>(cols));
  });
}

}  // namespace osvs::cuda
