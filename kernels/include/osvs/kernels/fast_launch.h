// Launching the fast kernel family (fast_plan.h, kernels/src/cuda/fast/) on device memory the
// caller owns. Only in builds with CUDA (OSVS_WITH_CUDA); launch_softmax (cuda_launch.h) calls it
// for KernelKind::Fast with a workspace of its own.
#pragma once

#include <cstddef>
#include <cstdint>

#include "osvs/kernels/cases.h"

namespace osvs::cuda {

/// How a split row's chunk states meet (rows of at most kFastClusterRowMax are never split).
enum class FastSplitPath {
  /// Cooperative where rows can be staged by bulk copies (16-byte aligned, n * sizeof(E) a
  /// multiple of 16) and one row's blocks fit the device at once, else TwoLaunch. On the H200,
  /// 64 x 2^20: staged cooperative 57.5 % of a copy, two launches 50.9 %, in one run; unstaged
  /// cooperative 49.2 % against two launches 51.8 % in another (reports/gpu/2026-12-01-staged).
  /// A pipelined variant that finished each chunk a chunk later reached 43-44 %
  /// (reports/gpu/2026-12-01-split-pipeline).
  Auto,
  /// One cooperative launch, x read once, chunks staged by bulk copies where rows allow it, else
  /// loaded into registers (throws if one row's blocks cannot be co-resident).
  Cooperative,
  TwoLaunch,  ///< chunk states, then merge and outputs: x read twice (L2 may serve the second)
};

/// Device bytes of workspace a rows x cols launch needs: the chunk states and two counters a row
/// of a split plan; 0 when rows are not split. Zero it once before its first launch
/// (cudaMemset); every completed launch leaves it zero again.
std::size_t fast_workspace_bytes(std::int64_t rows, std::int64_t cols);

/// What a launch of rows x cols does: the path it takes on device 0 and the HBM traffic it
/// implies (bytes; `read_twice` when x is read a second time, from L2 where still resident).
struct FastLaunchInfo {
  const char* layout;  ///< "warp_per_row", "block_per_row", "cluster_row" or "split_row"
  const char* path;    ///< "single", "cluster", "cluster_shared", "cooperative" or "two_launch"
  int threads;         ///< threads per block
  int vec;             ///< float4s per thread
  std::int64_t chunks;
  int cluster;        ///< blocks of the cluster that holds a row (1: none)
  std::int64_t grid;  ///< blocks launched (per launch)
  double hbm_bytes;   ///< x read once, y written once, chunk states and counters
  bool read_twice;    ///< the second launch reads x again: up to rows * cols * 4 more bytes
};
FastLaunchInfo describe_fast_launch(std::int64_t rows, std::int64_t cols,
                                    FastSplitPath path = FastSplitPath::Auto);

/// Enqueues the fast kernel on `stream` (a cudaStream_t; nullptr = default stream). `workspace`:
/// fast_workspace_bytes(rows, cols) of zeroed device memory, or nullptr to allocate and zero it
/// on the stream (cudaMallocAsync) for this launch. Validate the shape first
/// (osvs::validate_shape). Throws std::runtime_error when a CUDA call fails, InvalidLaunch for a
/// Cooperative path the device cannot run.
void launch_fast_softmax(const float* x, float* y, State* row_state, std::int64_t rows,
                         std::int64_t cols, void* workspace, void* stream,
                         FastSplitPath path = FastSplitPath::Auto);

/// The same kernel reading and writing bf16 (its bits): each input widens exactly to float, the
/// arithmetic is launch_fast_softmax's, each output rounds once to the nearest bf16 (64-bit
/// accesses of four elements instead of 128-bit). Row states are float.
void launch_fast_softmax_bf16(const std::uint16_t* x, std::uint16_t* y, State* row_state,
                              std::int64_t rows, std::int64_t cols, void* workspace, void* stream,
                              FastSplitPath path = FastSplitPath::Auto);

}  // namespace osvs::cuda
