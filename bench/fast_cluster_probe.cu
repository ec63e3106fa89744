// A diagnostic of the fast kernel's cluster rows (osvs issue 14): what grouping blocks into a
// thread-block cluster costs by itself, apart from the cluster's barriers and remote reads.
//
//   4096 x 8192    the block-row kernel (fast_row_kernel, 256 threads, a row a block) launched
//                  plainly and grouped into clusters of 2, 4 and 8 blocks that never use them
//                  (no barrier, no distributed shared memory): the same work, the same bytes
//   1024 x 32768   the cluster kernel (fast_cluster_kernel, 4 blocks of 256 a row), the same
//                  bytes as 4096 x 8192
//
//   4096 x 8192    block rows staged by bulk copies (staged_load.cuh) in persistent blocks, with
//                  one or two parts in flight a block (probe kernel below): the staged cluster
//                  kernel's data movement without its exchange
//   1024 x 32768   the launcher's cluster rows (staged where rows are aligned)
//
// If the grouped launches keep the plain launch's fraction of a copy, the cluster rows lose
// their bandwidth to the barriers and remote reads; if they fall to the cluster kernel's
// fraction, to the scheduling of clusters. Likewise the staged block rows against the staged
// cluster rows: what the exchange costs once the loads are decoupled. Timing only (the outputs of
// the grouped launches are the plain launch's; nothing here is checked against the model). Run on a
// GPU by hand. usage: osvs_fast_cluster_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <vector>

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
  __shared__ StageBarrier landed[STAGES];
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

/// Times staged_block_rows<256, 8, STAGES> on rows x 8192 with as many blocks as fit at once
/// (persistent) or a block a row.
template <int STAGES>
LaunchTiming time_staged_block_rows(std::int64_t rows, State* row_state, bool persistent = true) {
  const auto kernel = staged_block_rows<256, 8, STAGES>;
  const int smem = STAGES * 8192 * 4;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0, sms = 0, device = 0;
  OSVS_CUDA_CHECK(cudaGetDevice(&device));
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  OSVS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 256, smem));
  const std::int64_t grid =
      persistent ? std::min<std::int64_t>(rows, std::int64_t{sms} * per_sm) : rows;
  std::printf("(staged block rows, %d part(s) a block: %d blocks an SM, grid %lld)\n", STAGES,
              per_sm, static_cast<long long>(grid));
  return time_launch_against_copy(rows, 8192, [&](const float* x, float* y) {
    kernel<<<static_cast<unsigned>(grid), 256, smem>>>(x, y, row_state, rows);
    OSVS_CUDA_CHECK(cudaGetLastError());
  });
}

/// Times the staged cluster kernel with blocks of T threads in clusters of C on rows x (C * T *
/// 32) elements, with as many clusters as fit at once (persistent) or a cluster a row.
template <int T, int C>
LaunchTiming time_staged_clusters(std::int64_t rows, State* row_state, bool persistent = true) {
  const auto kernel = fast_cluster_staged_kernel<float, T, 8, KernelMutation::None>;
  const int smem = T * 32 * 4;
  const std::int64_t cols = std::int64_t{C} * T * 32;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const ClusterConfig probe(C, T, C, static_cast<std::size_t>(smem), nullptr);
  int clusters = 0;
  OSVS_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &probe.config));
  const std::int64_t grid = (persistent ? std::min<std::int64_t>(rows, clusters) : rows) * C;
  std::printf("(staged clusters of %d x %d threads: %d clusters at once, grid %lld)\n", C, T,
              clusters, static_cast<long long>(grid));
  return time_launch_against_copy(rows, cols, [&](const float* x, float* y) {
    launch_in_clusters_smem(kernel, static_cast<unsigned>(grid), T, C,
                            static_cast<std::size_t>(smem), nullptr, x, y, row_state, rows, cols);
  });
}

/// Times fast_streamed_kernel on rows x cols (a plan of several parts) with a lag of rows whose
/// outputs fill l2_bytes.
template <int T, bool WARP_MERGE>
LaunchTiming time_streamed(std::int64_t rows, std::int64_t cols, std::int64_t l2_bytes,
                           State* row_state) {
  const FastPlan p = fast_plan(cols);
  const std::int64_t C = p.parts(), L = fast_stream_lag(rows, cols, l2_bytes);
  FastMergeState* states = nullptr;
  unsigned* counters = nullptr;
  unsigned long long* tickets = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&states, rows * C * sizeof(FastMergeState)));
  OSVS_CUDA_CHECK(cudaMalloc(&counters, 2 * rows * sizeof(unsigned)));
  OSVS_CUDA_CHECK(cudaMalloc(&tickets, 2 * sizeof(unsigned long long)));
  OSVS_CUDA_CHECK(cudaMemset(counters, 0, 2 * rows * sizeof(unsigned)));
  OSVS_CUDA_CHECK(cudaMemset(tickets, 0, 2 * sizeof(unsigned long long)));
  {  // the streamed outputs against the launcher's, bit for bit, on N(0, 10) rows
    std::vector<float> host(static_cast<std::size_t>(rows * cols));
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.0f, 10.0f);
    for (float& v : host) v = normal(rng);
    float *x = nullptr, *y1 = nullptr, *y2 = nullptr;
    const std::size_t bytes = host.size() * sizeof(float);
    OSVS_CUDA_CHECK(cudaMalloc(&x, bytes));
    OSVS_CUDA_CHECK(cudaMalloc(&y1, bytes));
    OSVS_CUDA_CHECK(cudaMalloc(&y2, bytes));
    OSVS_CUDA_CHECK(cudaMemcpy(x, host.data(), bytes, cudaMemcpyHostToDevice));
    launch_fast_softmax(x, y1, row_state, rows, cols, nullptr, nullptr);
    fast_streamed_kernel<T, 8, WARP_MERGE, KernelMutation::None>
        <<<static_cast<unsigned>(2 * rows * C), T>>>(x, y2, row_state, rows, cols, C, L, states,
                                                     counters, counters + rows, tickets);
    OSVS_CUDA_CHECK(cudaGetLastError());
    OSVS_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> a(host.size()), b(host.size());
    OSVS_CUDA_CHECK(cudaMemcpy(a.data(), y1, bytes, cudaMemcpyDeviceToHost));
    OSVS_CUDA_CHECK(cudaMemcpy(b.data(), y2, bytes, cudaMemcpyDeviceToHost));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differ += float_bits(a[i]) != float_bits(b[i]);
    std::printf("(streamed against the launcher: %zu of %zu outputs differ)\n", differ, a.size());
    OSVS_CUDA_CHECK(cudaFree(x));
    OSVS_CUDA_CHECK(cudaFree(y1));
    OSVS_CUDA_CHECK(cudaFree(y2));
  }
  std::printf("(streamed %lldx%lld: %lld parts a row, lag %lld rows, %lld blocks)\n",
              static_cast<long long>(rows), static_cast<long long>(cols), static_cast<long long>(C),
              static_cast<long long>(L), static_cast<long long>(2 * rows * C));
  const LaunchTiming r = time_launch_against_copy(rows, cols, [&](const float* x, float* y) {
    fast_streamed_kernel<T, 8, WARP_MERGE, KernelMutation::None>
        <<<static_cast<unsigned>(2 * rows * C), T>>>(x, y, row_state, rows, cols, C, L, states,
                                                     counters, counters + rows, tickets);
    OSVS_CUDA_CHECK(cudaGetLastError());
  });
  OSVS_CUDA_CHECK(cudaFree(states));
  OSVS_CUDA_CHECK(cudaFree(counters));
  OSVS_CUDA_CHECK(cudaFree(tickets));
  return r;
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
        osvs::cuda::fast::time_staged_block_rows<1>(kRows, row_state));
  print("4096x8192", "block rows, staged, persistent, 2 parts ahead",
        osvs::cuda::fast::time_staged_block_rows<2>(kRows, row_state));
  std::printf("(launcher: %s, grid %lld)\n",
              osvs::cuda::describe_fast_launch(kLongRows, kLongCols).path,
              static_cast<long long>(osvs::cuda::describe_fast_launch(kLongRows, kLongCols).grid));
  print("1024x32768", "cluster rows, the launcher (staged)",
        osvs::time_launch_against_copy(kLongRows, kLongCols, [&](const float* x, float* y) {
          osvs::cuda::launch_fast_softmax(x, y, row_state, kLongRows, kLongCols, nullptr, nullptr);
        }));
  print("4096x8192", "block rows, staged, a block a row",
        osvs::cuda::fast::time_staged_block_rows<1>(kRows, row_state, false));
  print("1024x32768", "staged clusters of 4 x 256, a cluster a row",
        osvs::cuda::fast::time_staged_clusters<256, 4>(kLongRows, row_state, false));
  print("1024x32768", "staged clusters of 8 x 128",
        osvs::cuda::fast::time_staged_clusters<128, 8>(kLongRows, row_state));
  print("1024x32768", "staged clusters of 4 x 256",
        osvs::cuda::fast::time_staged_clusters<256, 4>(kLongRows, row_state));
  print("1024x32768", "staged clusters of 2 x 512",
        osvs::cuda::fast::time_staged_clusters<512, 2>(kLongRows, row_state));
  for (std::int64_t mb : {8, 16, 32})
    print("1024x32768", ("streamed, lag " + std::to_string(mb) + " MB").c_str(),
          osvs::cuda::fast::time_streamed<256, true>(kLongRows, kLongCols, mb << 20, row_state));
  OSVS_CUDA_CHECK(cudaFree(row_state));
  OSVS_CUDA_CHECK(cudaMalloc(&row_state, 64 * sizeof(State)));
  for (std::int64_t mb : {8, 16, 32})
    print("64x1048576", ("streamed, lag " + std::to_string(mb) + " MB").c_str(),
          osvs::cuda::fast::time_streamed<512, false>(64, 1 << 20, mb << 20, row_state));
  OSVS_CUDA_CHECK(cudaFree(row_state));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_fast_cluster_probe: %s\n", e.what());
  return 1;
}
