// The launcher of the fast kernel family as written (FastSchedule): launch_fast_softmax and its
// bf16 twin run fast_launch_plan.cuh's launch (the plan of the row length picks the kernel), and
// what a launch does is described from the same plan. Every CUDA call's status is checked.
#include <cstdint>

#include "fast_launch_plan.cuh"
#include "osvs/kernels/fast_launch.h"

namespace osvs::cuda {

std::size_t fast_workspace_bytes(std::int64_t rows, std::int64_t cols) {
  const FastPlan p = fast_plan(cols);
  if (p.chunks == 1) return 0;
  return static_cast<std::size_t>(rows * p.chunks) * sizeof(FastMergeState) +
         2 * static_cast<std::size_t>(rows) * sizeof(unsigned);
}

FastLaunchInfo describe_fast_launch(std::int64_t rows, std::int64_t cols, FastSplitPath path) {
  const FastPlan p = fast_plan(cols);
  FastLaunchInfo i{};
  i.threads = p.threads;
  i.vec = p.vec;
  i.chunks = p.chunks;
  i.cluster = p.blocks;
  i.hbm_bytes = 2.0 * static_cast<double>(rows) * static_cast<double>(cols) * sizeof(float) +
                static_cast<double>(fast_workspace_bytes(rows, cols));
  if (p.blocks > 1) {  // rows of device memory (cudaMalloc: 256-byte aligned)
    i.layout = "cluster_row";
    const bool staged = fast::stageable(static_cast<const float*>(nullptr), cols);
    i.path = staged ? "cluster_shared" : "cluster";
    i.grid = rows * p.blocks;
    return i;
  }
  if (p.chunks == 1) {
    i.layout = p.threads == kWarpSize ? "warp_per_row" : "block_per_row";
    i.path = "single";
    i.grid = p.threads == kWarpSize ? (rows + fast::kWarpRowsPerBlock - 1) / fast::kWarpRowsPerBlock
                                    : rows;
    return i;
  }
  i.layout = "split_row";
  const bool staged = fast::stageable(static_cast<const float*>(nullptr), cols);
  const bool cooperative =
      path == FastSplitPath::Cooperative || (path == FastSplitPath::Auto && staged);
  const std::int64_t R = !cooperative ? 0
                         : staged
                             ? fast::cooperative_rows<FastSchedule, float, true>(rows, p.chunks)
                             : fast::cooperative_rows<FastSchedule, float, false>(rows, p.chunks);
  i.path = R > 0 ? "cooperative" : "two_launch";
  i.grid = R > 0 ? R * p.chunks : rows * p.chunks;
  i.read_twice = R == 0;
  return i;
}

void launch_fast_softmax(const float* x, float* y, State* row_state, std::int64_t rows,
                         std::int64_t cols, void* workspace, void* stream, FastSplitPath path) {
  fast::launch_fast<FastSchedule>(x, y, row_state, rows, cols, workspace, stream, path);
}

void launch_fast_softmax_bf16(const std::uint16_t* x, std::uint16_t* y, State* row_state,
                              std::int64_t rows, std::int64_t cols, void* workspace, void* stream,
                              FastSplitPath path) {
  fast::launch_fast<FastSchedule>(x, y, row_state, rows, cols, workspace, stream, path);
}

}  // namespace osvs::cuda
