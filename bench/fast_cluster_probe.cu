// A diagnostic of the fast kernel's cluster rows (osvs issue 14): what a cluster row costs beyond
// the block rows holding the same bytes, and where.
//
//   4096 x 8192    the block-row kernel (fast_row_kernel, 256 threads, a row a block) launched
//                  plainly and grouped into clusters of 2, 4 and 8 blocks that never use them
//                  (no barrier, no distributed shared memory): the same work, the same bytes
//   1024 x 32768   the register cluster kernel (fast_cluster_kernel, 4 blocks of 256 a row),
//                  the same bytes as 4096 x 8192
//   4096 x 8192    block rows staged by bulk copies (staged_load.cuh): in persistent blocks
//                  with one or two parts in flight a block, and a block a row (probe kernel
//                  below): the data movement of the staged kernels without their exchange
//   1024 x 32768   the launcher's cluster rows (fast_cluster_shared_kernel where rows are
//                  aligned), then that kernel in clusters of 8 x 128, 4 x 256 and 2 x 512
//   64 x 2^20      the launcher's split rows (staged cooperative), then the same chunks (the
//                  split plan's) as staged block rows, persistent and a block a chunk: the split
//                  rows' data movement without their exchange
//
// If the grouped launches keep the plain launch's fraction of a copy, the cluster rows lose
// their bandwidth to the exchange, not to the scheduling of clusters; the staged block rows
// against the staged cluster rows say what the exchange costs once the loads are staged. Timing
// only (the outputs of the grouped launches are the plain launch's; nothing here is checked
// against the model). Run on a GPU by hand. usage: osvs_fast_cluster_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "cluster_launch.cuh"
#include "cuda_check.cuh"
#include "fast_kernels.cuh"
#include "osvs/kernels/bandwidth.h"
#include "osvs/kernels/fast_launch.h"

namespace osvs::cuda::fast {
namespace {

/// Block rows of n = T * K * 4 elements (the block-row kernel's arithmetic), each block looping
/// over rows r = blockIdx.x, + gridDim.x, ... with STAGES parts staged ahead in shared memory.
template <int T, int K, int STAGES>
__global__ void __launch_bounds__(T, 1024 / T)
    staged_block_rows(const float* __restrict__ x, float* __restrict__ y,
                      State* __restrict__ row_state, std::int64_t M) {
  constexpr std::int64_t n = std::int64_t{T} * K * 4;
  const int t = static_cast<int>(threadIdx.x);
  extern __shared__ __align__(128) unsigned char staging[];
  float* const staged = reinterpret_cast<float*>(staging);
  __shared__ TxBarrier landed[STAGES];
  if (t == 0)
    for (int s = 0; s < STAGES; ++s) landed[s].init();
  __syncthreads();
  for (int s = 0; s < STAGES; ++s) {
    const std::int64_t row = blockIdx.x + std::int64_t{s} * gridDim.x;
    if (t == 0 && row < M) landed[s].stage(staged + s * n, x + row * n, n * sizeof(float));
  }
  std::int64_t use = 0;
  for (std::int64_t row = blockIdx.x; row < M; row += gridDim.x, ++use) {
    const int s = static_cast<int>(use % STAGES);
    landed[s].wait(static_cast<std::uint32_t>((use / STAGES) & 1));
    float v[4 * K];
    read_staged<T, K>(staged + s * n, n, t, v);
    __syncthreads();
    const std::int64_t next = row + std::int64_t{STAGES} * gridDim.x;
    if (t == 0 && next < M) landed[s].stage(staged + s * n, x + next * n, n * sizeof(float));
    const State st = fast_row_state(chunk_state<T, K, true>(v));
    if (t == 0) row_state[row] = st;
    store_chunk<T, K, true>(y + row * n, n, 0, t, true, v, st.m, fast_part_scale(st.m, st));
  }
}

/// Times staged_block_rows<T, K, STAGES> on rows x (T * K * 4) with as many blocks as fit at
/// once (persistent) or a block a row.
template <int T, int K, int STAGES>
LaunchTiming time_staged_block_rows(std::int64_t rows, State* row_state, bool persistent = true) {
  const auto kernel = staged_block_rows<T, K, STAGES>;
  constexpr std::int64_t n = std::int64_t{T} * K * 4;
  const int smem = static_cast<int>(STAGES * n * 4);
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0, sms = 0, device = 0;
  OSVS_CUDA_CHECK(cudaGetDevice(&device));
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  OSVS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, T, smem));
  const std::int64_t grid =
      persistent ? std::min<std::int64_t>(rows, std::int64_t{sms} * per_sm) : rows;
  std::printf("(staged block rows of %lld, %d part(s) a block: %d blocks an SM, grid %lld)\n",
              static_cast<long long>(n), STAGES, per_sm, static_cast<long long>(grid));
  return time_launch_against_copy(rows, n, [&](const float* x, float* y) {
    kernel<<<static_cast<unsigned>(grid), T, smem>>>(x, y, row_state, rows);
    OSVS_CUDA_CHECK(cudaGetLastError());
  });
}

/// Times the shared-memory cluster kernel with blocks of T threads in clusters of C on rows x
/// (C * T * 32) elements, a cluster a row.
template <int T, int C>
LaunchTiming time_shared_clusters(std::int64_t rows, State* row_state) {
  const auto kernel = fast_cluster_shared_kernel<float, T, 8, KernelMutation::None>;
  const int smem = T * 32 * 4;
  const std::int64_t cols = std::int64_t{C} * T * 32;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  return time_launch_against_copy(rows, cols, [&](const float* x, float* y) {
    launch_in_clusters_smem(kernel, static_cast<unsigned>(rows * C), T, C,
                            static_cast<std::size_t>(smem), nullptr, x, y, row_state, cols);
  });
}

}  // namespace
}  // namespace osvs::cuda::fast

namespace {

using osvs::KernelMutation;
using osvs::State;
using osvs::cuda::fast::launch_in_clusters;

void print(const char* shape, const char* what, const osvs::LaunchTiming& t) {
  std::printf("%-12s %-44s %9.4f ms %9.4f ms %7.1f%%\n", shape, what, t.ms, t.copy_ms,
              100.0 * t.fraction_of_copy);
}

}  // namespace

int main() try {
  constexpr std::int64_t kRows = 4096, kCols = 8192, kLongRows = 1024, kLongCols = 32768;
  State* row_state = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&row_state, kRows * sizeof(State)));
  std::printf("%-12s %-44s %12s %12s %8s\n", "shape", "launch", "time", "copy", "of copy");
  const auto block_row = osvs::cuda::fast::fast_row_kernel<float, 256, 8, 1, KernelMutation::None>;
  for (unsigned cluster : {1u, 2u, 4u, 8u}) {
    char what[64];
    std::snprintf(what, sizeof what, "block rows, clusters of %u (unused)", cluster);
    print("4096x8192", cluster == 1 ? "block rows, plain launch" : what,
          osvs::time_launch_against_copy(kRows, kCols, [&](const float* x, float* y) {
            launch_in_clusters(block_row, kRows, 256, cluster, nullptr, x, y, row_state, kRows,
                               kCols);
          }));
  }
  const auto cluster_row =
      osvs::cuda::fast::fast_cluster_kernel<float, 256, 8, KernelMutation::None>;
  print("1024x32768", "cluster rows, clusters of 4 (the kernel)",
        osvs::time_launch_against_copy(kLongRows, kLongCols, [&](const float* x, float* y) {
          launch_in_clusters(cluster_row, kLongRows * 4, 256, 4, nullptr, x, y, row_state,
                             kLongCols);
        }));
  print("4096x8192", "block rows, staged, persistent, 1 part ahead",
        osvs::cuda::fast::time_staged_block_rows<256, 8, 1>(kRows, row_state));
  print("4096x8192", "block rows, staged, persistent, 2 parts ahead",
        osvs::cuda::fast::time_staged_block_rows<256, 8, 2>(kRows, row_state));
  std::printf("(launcher: %s, grid %lld)\n",
              osvs::cuda::describe_fast_launch(kLongRows, kLongCols).path,
              static_cast<long long>(osvs::cuda::describe_fast_launch(kLongRows, kLongCols).grid));
  print("1024x32768", "cluster rows, the launcher (staged)",
        osvs::time_launch_against_copy(kLongRows, kLongCols, [&](const float* x, float* y) {
          osvs::cuda::launch_fast_softmax(x, y, row_state, kLongRows, kLongCols, nullptr, nullptr);
        }));
  print("4096x8192", "block rows, staged, a block a row",
        osvs::cuda::fast::time_staged_block_rows<256, 8, 1>(kRows, row_state, false));
  print("1024x32768", "shared-memory clusters of 8 x 128",
        osvs::cuda::fast::time_shared_clusters<128, 8>(kLongRows, row_state));
  print("1024x32768", "shared-memory clusters of 4 x 256",
        osvs::cuda::fast::time_shared_clusters<256, 4>(kLongRows, row_state));
  print("1024x32768", "shared-memory clusters of 2 x 512",
        osvs::cuda::fast::time_shared_clusters<512, 2>(kLongRows, row_state));
  // 64 x 2^20: the split row's staged cooperative launch, then the same chunks (the split
  // layout of fast_plan.h, one staged ahead) as persistent block rows with no exchange: what the
  // rows' waits cost
  constexpr std::int64_t kSplitRows = 64, kSplitCols = std::int64_t{1} << 20;
  constexpr int kChunkT = osvs::kFastSplitThreads, kChunkK = osvs::kFastBlockVec;
  constexpr std::int64_t kChunk = std::int64_t{kChunkT} * kChunkK * 4;
  if (osvs::fast_plan(kSplitCols).chunk_span() != kChunk ||
      osvs::fast_plan(kSplitCols).vec != kChunkK)
    throw std::logic_error("the probe's chunks are not the split plan's");
  std::printf(
      "(launcher: %s, grid %lld)\n", osvs::cuda::describe_fast_launch(kSplitRows, kSplitCols).path,
      static_cast<long long>(osvs::cuda::describe_fast_launch(kSplitRows, kSplitCols).grid));
  void* workspace = nullptr;
  const std::size_t ws_bytes = osvs::cuda::fast_workspace_bytes(kSplitRows, kSplitCols);
  OSVS_CUDA_CHECK(cudaMalloc(&workspace, ws_bytes));
  OSVS_CUDA_CHECK(cudaMemset(workspace, 0, ws_bytes));
  print("64x1048576", "split rows, the launcher (staged cooperative)",
        osvs::time_launch_against_copy(kSplitRows, kSplitCols, [&](const float* x, float* y) {
          osvs::cuda::launch_fast_softmax(x, y, row_state, kSplitRows, kSplitCols, workspace,
                                          nullptr);
        }));
  OSVS_CUDA_CHECK(cudaFree(workspace));
  constexpr std::int64_t kChunkRows = kSplitRows * kSplitCols / kChunk;
  State* chunk_state = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&chunk_state, kChunkRows * sizeof(State)));
  print("64x1048576", "its chunks as block rows, persistent, staged",
        osvs::cuda::fast::time_staged_block_rows<kChunkT, kChunkK, 1>(kChunkRows, chunk_state));
  print("64x1048576", "its chunks as block rows, a block a chunk",
        osvs::cuda::fast::time_staged_block_rows<kChunkT, kChunkK, 1>(kChunkRows, chunk_state,
                                                                      false));
  OSVS_CUDA_CHECK(cudaFree(chunk_state));
  OSVS_CUDA_CHECK(cudaFree(row_state));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_fast_cluster_probe: %s\n", e.what());
  return 1;
}
