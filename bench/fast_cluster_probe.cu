// A diagnostic of the fast kernel (osvs issue 14): what its split and cluster rows cost beyond
// the same bytes with no exchange, and whether the per-element arithmetic or the bandwidth sets
// its speed. Earlier questions of this probe were answered at the commits its reports name
// (reports/gpu/2026-12-01-staged, -split-pipeline; -split-exchange for split rows in ticket
// order, tagged states, two chunks a block, a lagged second read, wide clusters of 16, and a
// clock timeline of a split block's steps).
//
//   64 x 2^20, 1024 x 32768   the launcher; the matrix cut into block rows of 16384 (512
//                             threads, staged, then registers) and of 8192 (256 threads, kept in
//                             shared memory): the same bytes with no exchange, a block a row
//   1024 x 32768              a clock timeline of the cluster rows' steps (landed, state,
//                             exchanged, stored) against the same blocks with no exchange, and
//                             how many clusters of 4 the device holds at once; the cluster
//                             kernel in other shapes (2 x 256 x 64, 2 x 512 x 32, 4 x 128 x 64
//                             threads x values against the plan's 4 x 256 x 32), and under the
//                             spread and load-balancing cluster scheduling policies
//   64 x 2^20                 the 256-thread block rows with a cheap exp (__expf of x - M, float
//                             sums: timing only): whether the accurate arithmetic (compensated
//                             portable exp, binary64 sums) is what limits them
//
//   policy                    only the cluster rows of 1024 x 32768 under the default and the
//                             load-balancing policy, alternately, ten times each: their medians
//
// What L2 can serve of a second read is l2_reread_probe.cu's question.
// Timing only: nothing here is checked against the model. Run on a GPU by hand.
// usage: osvs_fast_cluster_probe [policy]
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

#include "cluster_launch.cuh"
#include "cuda_check.cuh"
#include "fast_kernels.cuh"
#include "osvs/kernels/bandwidth.h"
#include "osvs/kernels/fast_launch.h"
#include "probe_report.h"

namespace osvs::cuda::fast {
namespace {

/// Stages the block's row (row blockIdx.x of x, rows of kSpanOf<T> floats) into the block's
/// dynamic shared memory by one bulk copy issued by thread 0, and returns it once it has landed.
/// Called once a block.
template <int T>
__device__ __forceinline__ float* stage_block_row(const float* __restrict__ x) {
  extern __shared__ __align__(128) unsigned char staging[];
  float* const buffer = reinterpret_cast<float*>(staging);
  __shared__ TxBarrier landed;
  if (threadIdx.x == 0) landed.init();
  __syncthreads();
  if (threadIdx.x == 0)
    landed.stage(buffer, x + std::int64_t{blockIdx.x} * kSpanOf<T>, kSpanOf<T> * sizeof(float));
  landed.wait(0);
  return buffer;
}

/// What a block row kernel's block works on: the row length n, its row (blockIdx.x), its thread t
/// and the row's elements, staged into the block's dynamic shared memory (stage_block_row).
struct StagedRow {
  std::int64_t n;
  std::int64_t row;
  int t;
  float* terms;
};

/// The block's StagedRow, of rows of n = kSpanOf<T> floats (thread and row read before staging).
template <int T>
__device__ __forceinline__ StagedRow staged_row(const float* __restrict__ x) {
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t row = blockIdx.x;
  return {kSpanOf<T>, row, t, stage_block_row<T>(x)};
}

/// Block rows of T * kK * 4 elements, a block a row, staged and kept in shared memory (the
/// holding of fast_cluster_shared_kernel's blocks, with no exchange).
template <int T>
__global__ void __launch_bounds__(T, 1536 / T)
    shared_block_rows(const float* __restrict__ x, float* __restrict__ y,
                      State* __restrict__ row_state) {
  const auto [n, row, t, terms] = staged_row<T>(x);
  const State st = fast_row_state(shared_part_state<T, kK>(terms, terms, n));
  if (t == 0) row_state[row] = st;
  store_shared_terms<T, kK>(y + row * n, n, 0, terms, fast_part_scale(st.m, st));
}

/// Staged block rows read into registers, a block a row (the register holding's ceiling).
template <int T>
__global__ void __launch_bounds__(T, 1024 / T)
    staged_block_rows(const float* __restrict__ x, float* __restrict__ y,
                      State* __restrict__ row_state) {
  const auto [n, row, t, staged] = staged_row<T>(x);
  float v[4 * kK];
  read_staged<T, kK>(staged, n, t, v);
  const State st = fast_row_state(chunk_state<T, kK, true>(v));
  if (t == 0) row_state[row] = st;
  store_chunk<T, kK, true>(y + row * n, n, 0, t, true, v, st.m, fast_part_scale(st.m, st));
}

/// shared_block_rows with cheap arithmetic (timing only, not the model's bits): terms __expf(x -
/// M) summed in float by each thread, outputs e / d.
template <int T>
__global__ void __launch_bounds__(T, 1536 / T)
    cheap_block_rows(const float* __restrict__ x, float* __restrict__ y,
                     State* __restrict__ row_state) {
  const auto [n, row, t, terms] = staged_row<T>(x);
  float m = -__builtin_huge_valf();
  for (int k = 0; k < kK; ++k) {
    const float4 g = *reinterpret_cast<const float4*>(terms + (k * T + t) * 4);
    m = fmaxf(m, fmaxf(fmaxf(g.x, g.y), fmaxf(g.z, g.w)));
  }
  const float M = chunk_fold<T>(m, FastMaxAlg{});
  float sum = 0.0f;
  for (int k = 0; k < kK; ++k) {
    float4* p = reinterpret_cast<float4*>(terms + (k * T + t) * 4);
    const float4 g = *p;
    const float4 e =
        make_float4(__expf(g.x - M), __expf(g.y - M), __expf(g.z - M), __expf(g.w - M));
    *p = e;
    sum += (e.x + e.y) + (e.z + e.w);
  }
  const double d = chunk_fold<T>(static_cast<double>(sum), FastSumAlg{});
  const float inv = static_cast<float>(1.0 / d);
  if (t == 0) row_state[row] = State{M, static_cast<float>(d)};
  for (int k = 0; k < kK; ++k) {
    const float4 e = *reinterpret_cast<const float4*>(terms + (k * T + t) * 4);
    *reinterpret_cast<float4*>(y + row * n + (k * T + t) * 4) =
        make_float4(e.x * inv, e.y * inv, e.z * inv, e.w * inv);
  }
}

int resident_per_sm(const void* kernel, int threads, std::size_t smem) {
  int per_sm = 0;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem)));
  OSVS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  return per_sm;
}

/// The device's time in ns.
__device__ __forceinline__ long long device_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

constexpr int kStamps =
    5;  ///< start, landed, state, exchanged, stored; then the device time at state

/// fast_cluster_shared_kernel's steps (EXCHANGE: a cluster a row, clusters of rows of C = n /
/// (T * kK * 4) blocks) or the same block rows with no exchange (each block scaled by its own
/// state: timing only), with a clock stamp after each step (thread 0 of each block, clock64).
template <int T, bool EXCHANGE>
__global__ void __launch_bounds__(T, 1536 / T)
    timed_cluster_rows(const float* __restrict__ x, float* __restrict__ y,
                       State* __restrict__ row_state, std::int64_t n, long long* stamps) {
  long long clk[kStamps];
  clk[0] = clock64();
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const int C = EXCHANGE ? static_cast<int>(cluster.num_blocks()) : 1;
  const int b = EXCHANGE ? static_cast<int>(cluster.block_rank()) : 0;
  const std::int64_t row = blockIdx.x / C;
  const std::int64_t base = b * kSpanOf<T>;
  extern __shared__ __align__(128) unsigned char staging[];
  float* const terms = reinterpret_cast<float*>(staging);
  __shared__ TxBarrier landed;
  __shared__ ClusterInbox inbox;
  __shared__ ClusterRowResult result;
  if (threadIdx.x == 0) {
    landed.init();
    landed.stage(terms, x + row * n + base, kSpanOf<T> * sizeof(float));
    if (EXCHANGE) inbox.open(C);
  }
  if (EXCHANGE) cluster_arrive_relaxed();
  __syncthreads();
  landed.wait(0);
  clk[1] = clock64();
  const FastMergeState mine = shared_part_state<T, kK>(terms, terms, kSpanOf<T>);
  clk[2] = clock64();
  const long long state_ns = device_ns();
  float scale = 0.0f;
  if constexpr (EXCHANGE) {
    scale = cluster_push_exchange<FastSchedule>(C, b, row, mine, row_state, inbox, result).scale;
  } else {
    const State st = fast_row_state(mine);
    scale = fast_part_scale(mine.s.m, st);
    if (threadIdx.x == 0) row_state[row] = st;
  }
  clk[3] = clock64();
  store_shared_terms<T, kK>(y + row * n, n, base, terms, scale);
  clk[4] = clock64();
  if (threadIdx.x == 0) {
    long long* out = stamps + std::int64_t{blockIdx.x} * (kStamps + 1);
    for (int i = 0; i < kStamps; ++i) out[i] = clk[i];
    out[kStamps] = state_ns;
  }
}

/// Runs timed_cluster_rows on M x n (after two warm-ups) and prints each step's mean and 10th,
/// 50th and 90th percentiles, a block's life, and a row's spread of state times (its blocks').
template <bool EXCHANGE>
void cluster_timeline(const char* shape, const char* what, std::int64_t M, std::int64_t n,
                      State* row_state) {
  constexpr int T = 256;
  const std::int64_t C = n / kSpanOf<T>, W = M * C;
  const auto kernel = timed_cluster_rows<T, EXCHANGE>;
  const std::size_t smem = kSpanOf<T> * sizeof(float);
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem)));
  const auto cluster = static_cast<unsigned>(EXCHANGE ? C : 1);
  const ClusterConfig config(static_cast<unsigned>(W), T, cluster, smem, nullptr);
  int clusters = 0;
  if (EXCHANGE) OSVS_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config.config));
  const auto N = static_cast<std::size_t>(M * n);
  float *x = nullptr, *y = nullptr;
  long long* stamps = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&x, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&y, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMemset(x, 0, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&stamps, W * (kStamps + 1) * sizeof(long long)));
  cudaEvent_t start, stop;
  OSVS_CUDA_CHECK(cudaEventCreate(&start));
  OSVS_CUDA_CHECK(cudaEventCreate(&stop));
  float ms = 0;
  for (int rep = 0; rep < 3; ++rep) {
    OSVS_CUDA_CHECK(cudaEventRecord(start));
    launch_in_clusters_smem(kernel, static_cast<unsigned>(W), T, cluster, smem, nullptr, x, y,
                            row_state, EXCHANGE ? n : kSpanOf<T>, stamps);
    OSVS_CUDA_CHECK(cudaEventRecord(stop));
    OSVS_CUDA_CHECK(cudaEventSynchronize(stop));
    OSVS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  }
  std::vector<long long> h(static_cast<std::size_t>(W * (kStamps + 1)));
  OSVS_CUDA_CHECK(
      cudaMemcpy(h.data(), stamps, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  int khz = 0;
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  const double per_us = khz / 1000.0;
  const auto summary = [&](const char* step, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    double mean = 0;
    for (double d : v) mean += d / static_cast<double>(v.size());
    const auto at = [&](double q) { return v[static_cast<std::size_t>(q * (v.size() - 1))]; };
    std::printf("%-12s %-26s %-10s mean %6.2f  p10 %6.2f  p50 %6.2f  p90 %6.2f us\n", shape, what,
                step, mean, at(0.1), at(0.5), at(0.9));
  };
  std::printf("%-12s %-26s %.4f ms a launch (%d clusters at once), clock %d MHz\n", shape, what, ms,
              clusters, khz / 1000);
  const char* steps[] = {"landed", "state", "exchanged", "stored"};
  for (int k = 1; k < kStamps; ++k) {
    std::vector<double> v;
    for (std::int64_t i = 0; i < W; ++i)
      v.push_back(static_cast<double>(h[i * (kStamps + 1) + k] - h[i * (kStamps + 1) + k - 1]) /
                  per_us);
    summary(steps[k - 1], v);
  }
  std::vector<double> life, spread;
  for (std::int64_t i = 0; i < W; ++i)
    life.push_back(static_cast<double>(h[i * (kStamps + 1) + kStamps - 1] - h[i * (kStamps + 1)]) /
                   per_us);
  for (std::int64_t r = 0; r < W / C; ++r) {
    long long lo = 0, hi = 0;
    for (std::int64_t c = 0; c < C; ++c) {
      const long long p = h[static_cast<std::size_t>((r * C + c) * (kStamps + 1) + kStamps)];
      lo = c == 0 ? p : std::min(lo, p);
      hi = c == 0 ? p : std::max(hi, p);
    }
    spread.push_back(static_cast<double>(hi - lo) / 1000.0);
  }
  summary("life", life);
  summary("state spread", spread);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(x);
  cudaFree(y);
  cudaFree(stamps);
}

/// fast_cluster_shared_kernel with blocks of T threads holding K float4s each, in clusters of C
/// (rows of C * T * K * 4 elements), on M rows: how many clusters fit at once, and the time.
template <int T, int K, int C>
LaunchTiming shared_clusters(
    const char* shape, std::int64_t M, State* row_state,
    cudaClusterSchedulingPolicy policy = cudaClusterSchedulingPolicyDefault) {
  const auto kernel = fast_cluster_shared_kernel<float, T, K, FastSchedule>;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeClusterSchedulingPolicyPreference,
                                       static_cast<int>(policy)));
  const std::size_t smem = shared_cluster_bytes<float>(std::int64_t{T} * K * 4);
  const std::int64_t n = std::int64_t{C} * T * K * 4;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem)));
  const ClusterConfig config(static_cast<unsigned>(M * C), T, C, smem, nullptr);
  int clusters = 0;
  OSVS_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config.config));
  const int per_sm = resident_per_sm(reinterpret_cast<const void*>(kernel), T, smem);
  const LaunchTiming timing = time_launch_against_copy(M, n, [&](const float* x, float* y) {
    launch_in_clusters_smem(kernel, static_cast<unsigned>(M * C), T, C, smem, nullptr, x, y,
                            row_state, n);
  });
  print(shape,
        "clusters of " + std::to_string(C) + " x " + std::to_string(T) + " x " +
            std::to_string(4 * K) + " (" + std::to_string(clusters) + " at once, " +
            std::to_string(per_sm) + "/SM" +
            (policy == cudaClusterSchedulingPolicySpread          ? ", spread"
             : policy == cudaClusterSchedulingPolicyLoadBalancing ? ", load-balancing"
                                                                  : "") +
            ")",
        timing, M * n);
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeClusterSchedulingPolicyPreference,
                                       static_cast<int>(cudaClusterSchedulingPolicyDefault)));
  return timing;
}

/// The cluster rows of 1024 x 32768 under the default and the load-balancing cluster scheduling
/// policy, alternately, `rounds` times each: the medians of their kernel times and fractions.
void policy_ab(State* row_state, int rounds) {
  std::vector<double> ms[2], fraction[2];
  const cudaClusterSchedulingPolicy policies[2] = {cudaClusterSchedulingPolicyDefault,
                                                   cudaClusterSchedulingPolicyLoadBalancing};
  for (int r = 0; r < rounds; ++r)
    for (int p = 0; p < 2; ++p) {
      const LaunchTiming t = shared_clusters<256, 8, 4>("1024x32768", 1024, row_state, policies[p]);
      ms[p].push_back(t.ms);
      fraction[p].push_back(t.fraction_of_copy);
    }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  for (int p = 0; p < 2; ++p)
    std::printf("1024x32768   %-16s median of %d: %.4f ms, %.1f%% of a copy (range %.1f-%.1f%%)\n",
                p == 0 ? "default" : "load-balancing", rounds, median(ms[p]),
                100.0 * median(fraction[p]),
                100.0 * *std::min_element(fraction[p].begin(), fraction[p].end()),
                100.0 * *std::max_element(fraction[p].begin(), fraction[p].end()));
}

/// A block row kernel of T threads on the matrix seen as rows of its span: the ceiling.
template <int T, class Kernel>
void ceiling(const char* shape, const char* what, Kernel kernel, std::size_t smem, std::int64_t M,
             std::int64_t n, State* row_state) {
  const std::int64_t rows = M * n / kSpanOf<T>;
  const int per_sm = resident_per_sm(reinterpret_cast<const void*>(kernel), T, smem);
  print(shape, std::string(what) + " (" + std::to_string(per_sm) + "/SM)",
        time_launch_against_copy(rows, kSpanOf<T>,
                                 [&](const float* x, float* y) {
                                   kernel<<<static_cast<unsigned>(rows), T, smem>>>(x, y,
                                                                                    row_state);
                                   OSVS_CUDA_CHECK(cudaGetLastError());
                                 }),
        M * n);
}

}  // namespace
}  // namespace osvs::cuda::fast

int main(int argc, char** argv) try {
  using namespace osvs::cuda::fast;
  using osvs::State;
  const std::string mode = argc > 1 ? argv[1] : "";
  if (argc > 2 || (mode != "" && mode != "policy"))
    throw std::invalid_argument("usage: osvs_fast_cluster_probe [policy]");
  const bool policy_only = mode == "policy";
  std::printf("%-12s %-46s %12s %12s %8s %19s\n", "shape", "launch", "time", "copy", "of copy",
              "rate");
  struct Shape {
    std::int64_t M, n;
    const char* name;
  };
  const Shape shapes[] = {{64, std::int64_t{1} << 20, "64x1048576"}, {1024, 32768, "1024x32768"}};
  State* row_state = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&row_state, 64 * 2 * 1024 * sizeof(State)));  // 8192-element rows
  if (policy_only) {
    policy_ab(row_state, 10);
    OSVS_CUDA_CHECK(cudaFree(row_state));
    return 0;
  }
  for (const Shape& s : shapes) {
    const osvs::cuda::FastLaunchInfo info = osvs::cuda::describe_fast_launch(s.M, s.n);
    void* ws = nullptr;
    const std::size_t ws_bytes = osvs::cuda::fast_workspace_bytes(s.M, s.n);
    if (ws_bytes > 0) {
      OSVS_CUDA_CHECK(cudaMalloc(&ws, ws_bytes));
      OSVS_CUDA_CHECK(cudaMemset(ws, 0, ws_bytes));
    }
    print(s.name, std::string("the launcher (") + info.path + ")",
          osvs::time_launch_against_copy(s.M, s.n,
                                         [&](const float* x, float* y) {
                                           osvs::cuda::launch_fast_softmax(x, y, row_state, s.M,
                                                                           s.n, ws, nullptr);
                                         }),
          s.M * s.n);
    cudaFree(ws);
    ceiling<512>(s.name, "no exchange: 512 staged, registers", staged_block_rows<512>,
                 kSpanOf<512> * sizeof(float), s.M, s.n, row_state);
    ceiling<256>(s.name, "no exchange: 256 shared", shared_block_rows<256>,
                 kSpanOf<256> * sizeof(float), s.M, s.n, row_state);
  }
  cluster_timeline<false>("1024x32768", "256 shared, no exchange", 1024, 32768, row_state);
  cluster_timeline<true>("1024x32768", "cluster rows of 4 x 256", 1024, 32768, row_state);
  shared_clusters<256, 8, 4>("1024x32768", 1024, row_state);
  shared_clusters<256, 16, 2>("1024x32768", 1024, row_state);
  shared_clusters<512, 8, 2>("1024x32768", 1024, row_state);
  shared_clusters<128, 16, 4>("1024x32768", 1024, row_state);
  shared_clusters<256, 8, 4>("1024x32768", 1024, row_state);  // again: the run's noise
  shared_clusters<256, 8, 4>("1024x32768", 1024, row_state, cudaClusterSchedulingPolicySpread);
  shared_clusters<256, 8, 4>("1024x32768", 1024, row_state,
                             cudaClusterSchedulingPolicyLoadBalancing);
  shared_clusters<256, 8, 4>("1024x32768", 1024, row_state);  // and again
  ceiling<256>("64x1048576", "cheap exp (timing only)", cheap_block_rows<256>,
               kSpanOf<256> * sizeof(float), 64, std::int64_t{1} << 20, row_state);
  OSVS_CUDA_CHECK(cudaFree(row_state));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_fast_cluster_probe: %s\n", e.what());
  return 1;
}
