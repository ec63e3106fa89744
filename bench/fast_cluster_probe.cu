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
//                             threads x values against the plan's 4 x 256 x 32)
//   64 x 2^20                 the 256-thread block rows with a cheap exp (__expf of x - M, float
//                             sums: timing only): whether the accurate arithmetic (compensated
//                             portable exp, binary64 sums) is what limits them
//
// Timing only: nothing here is checked against the model. Run on a GPU by hand.
// usage: osvs_fast_cluster_probe [policy | streamed]   (policy: only the cluster scheduling
// policies, A/B; streamed: only the streamed split rows, checked against the two launches)
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

namespace osvs::cuda::fast {
namespace {

constexpr int kK = kFastBlockVec;
template <int T>
constexpr std::int64_t kSpanOf = std::int64_t{T} * kK * 4;

/// Stages row `row` of x (rows of kSpanOf<T> floats) into `buffer` by one bulk copy issued by
/// thread 0; every thread returns once the row has landed. Called once a block.
template <int T>
__device__ __forceinline__ void stage_block_row(const float* __restrict__ x, std::int64_t row,
                                                float* buffer) {
  __shared__ TxBarrier landed;
  if (threadIdx.x == 0) landed.init();
  __syncthreads();
  if (threadIdx.x == 0) landed.stage(buffer, x + row * kSpanOf<T>, kSpanOf<T> * sizeof(float));
  landed.wait(0);
}

/// Block rows of T * kK * 4 elements, a block a row, staged and kept in shared memory (the
/// holding of fast_cluster_shared_kernel's blocks, with no exchange).
template <int T>
__global__ void __launch_bounds__(T, 1536 / T)
    shared_block_rows(const float* __restrict__ x, float* __restrict__ y,
                      State* __restrict__ row_state) {
  constexpr std::int64_t n = kSpanOf<T>;
  extern __shared__ __align__(128) unsigned char staging[];
  float* const terms = reinterpret_cast<float*>(staging);
  const std::int64_t row = blockIdx.x;
  stage_block_row<T>(x, row, terms);
  const State st = fast_row_state(shared_part_state<T, kK>(terms, terms, n));
  if (threadIdx.x == 0) row_state[row] = st;
  store_shared_terms<T, kK>(y + row * n, n, 0, terms, fast_part_scale(st.m, st));
}

/// Staged block rows read into registers, a block a row (the register holding's ceiling).
template <int T>
__global__ void __launch_bounds__(T, 1024 / T)
    staged_block_rows(const float* __restrict__ x, float* __restrict__ y,
                      State* __restrict__ row_state) {
  constexpr std::int64_t n = kSpanOf<T>;
  const int t = static_cast<int>(threadIdx.x);
  extern __shared__ __align__(128) unsigned char staging[];
  float* const staged = reinterpret_cast<float*>(staging);
  const std::int64_t row = blockIdx.x;
  stage_block_row<T>(x, row, staged);
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
  constexpr std::int64_t n = kSpanOf<T>;
  const int t = static_cast<int>(threadIdx.x);
  extern __shared__ __align__(128) unsigned char staging[];
  float* const terms = reinterpret_cast<float*>(staging);
  const std::int64_t row = blockIdx.x;
  stage_block_row<T>(x, row, terms);
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

/// An L2 hint on a 16-byte access: Reread keeps the line (evict_last policy), LastUse is its last
/// touch (ld/st .cs, evict first).
enum class L2Hint { Normal, Reread, LastUse };

template <L2Hint H>
__device__ __forceinline__ float4 load_hinted(const float* p) {
  const auto* q = reinterpret_cast<const float4*>(p);
  if constexpr (H == L2Hint::LastUse) {
    return __ldcs(q);
  } else if constexpr (H == L2Hint::Reread) {
    std::uint64_t policy;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    float4 v;
    asm volatile("ld.global.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(q), "l"(policy));
    return v;
  } else {
    return __ldcg(q);  // L2 only: a second read is not served by this SM's L1
  }
}

template <L2Hint H>
__device__ __forceinline__ void store_hinted(float* p, float4 v) {
  if constexpr (H == L2Hint::LastUse)
    __stcs(reinterpret_cast<float4*>(p), v);
  else
    *reinterpret_cast<float4*>(p) = v;
}

/// The data movement of a streamed split row with no arithmetic and no waits (the ceiling of any
/// design whose second read of x is meant to hit L2): block i reads chunk i of x (i < W, the
/// state read) and, once i >= LAG, reads chunk i - LAG again and writes its y (the output read).
/// LAG = 0: a block reads its chunk once and writes it (a copy by blocks of one chunk). Hints:
/// None; Stores, the second read and the stores are the lines' last use (evict first); All, and
/// the first read keeps its lines in L2 (evict_last).
enum class Hints { None, Stores, All };
template <int T, Hints HINTS>
__global__ void __launch_bounds__(T)
    streamed_movement(const float* __restrict__ x, float* __restrict__ y, std::int64_t W,
                      std::int64_t lag, float* sink) {
  constexpr std::int64_t n = kSpanOf<T>;
  constexpr L2Hint kFirst = HINTS == Hints::All ? L2Hint::Reread : L2Hint::Normal;
  constexpr L2Hint kLast = HINTS == Hints::None ? L2Hint::Normal : L2Hint::LastUse;
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t item = blockIdx.x;
  if (lag == 0) {
    float4 v[kK];
#pragma unroll
    for (int k = 0; k < kK; ++k) v[k] = load_hinted<L2Hint::Normal>(x + item * n + (k * T + t) * 4);
#pragma unroll
    for (int k = 0; k < kK; ++k) store_hinted<kLast>(y + item * n + (k * T + t) * 4, v[k]);
    return;
  }
  float acc = 0.0f;
  if (item < W) {
    float4 v[kK];
#pragma unroll
    for (int k = 0; k < kK; ++k) v[k] = load_hinted<kFirst>(x + item * n + (k * T + t) * 4);
#pragma unroll
    for (int k = 0; k < kK; ++k) acc += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  if (item >= lag) {
    const std::int64_t j = item - lag;
    float4 v[kK];
#pragma unroll
    for (int k = 0; k < kK; ++k) v[k] = load_hinted<kLast>(x + j * n + (k * T + t) * 4);
#pragma unroll
    for (int k = 0; k < kK; ++k) store_hinted<kLast>(y + j * n + (k * T + t) * 4, v[k]);
  }
  if (acc == -1.0f) sink[0] = acc;  // keeps the first read
}

/// streamed_movement with the split rows' arithmetic (timing only: no waits, and each output item
/// takes its chunk's own state for the row's): the state item finds its chunk's state
/// (chunk_state, an exp an element) and writes it; the output item reads the chunk again and
/// writes its outputs against its state (fast_outputs4, an exp an element). All hints.
template <int T>
__global__ void __launch_bounds__(T)
    streamed_arithmetic(const float* __restrict__ x, float* __restrict__ y, std::int64_t W,
                        std::int64_t lag, FastMergeState* states) {
  constexpr std::int64_t n = kSpanOf<T>;
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t item = blockIdx.x;
  if (item < W) {
    float v[4 * kK];
#pragma unroll
    for (int k = 0; k < kK; ++k) {
      const float4 g = load_hinted<L2Hint::Reread>(x + item * n + (k * T + t) * 4);
      v[4 * k] = g.x, v[4 * k + 1] = g.y, v[4 * k + 2] = g.z, v[4 * k + 3] = g.w;
    }
    const FastMergeState st = chunk_state<T, kK, false>(v);
    if (t == 0) states[item] = st;
  }
  if (item >= lag) {
    const std::int64_t j = item - lag;
    const State s = fast_row_state(load_state_cg(states + j));
    const float scale = fast_part_scale(s.m, s);
#pragma unroll
    for (int k = 0; k < kK; ++k) {
      const float4 g = load_hinted<L2Hint::LastUse>(x + j * n + (k * T + t) * 4);
      const float in[4] = {g.x, g.y, g.z, g.w};
      float out[4];
      fast_outputs4(in, s.m, scale, out);
      store_hinted<L2Hint::LastUse>(y + j * n + (k * T + t) * 4,
                                    make_float4(out[0], out[1], out[2], out[3]));
    }
  }
}

/// A split row streamed through L2 (the two launches' arithmetic in one launch, bit for bit):
/// each block draws a ticket k as it starts; ticket k is the state item of chunk k (chunk k % C
/// of row k / C: its chunk state, announced on the row's counter) and then the output item of
/// chunk k - LAG (it waits until that row's C states are announced, merges them and writes the
/// chunk's outputs from a second read of x, meant to hit L2). A ticket waits only on smaller
/// tickets, whose blocks have started, so the launch cannot deadlock. counters: [0] the ticket,
/// [1] the blocks done, [2 + r] row r's announced states; the last block zeroes them all.
template <int T>
__global__ void __launch_bounds__(T)
    streamed_split(const float* __restrict__ x, float* __restrict__ y,
                   State* __restrict__ row_state, std::int64_t M, std::int64_t n, std::int64_t lag,
                   FastMergeState* chunk_states, unsigned* counters) {
  constexpr std::int64_t kSpan = std::int64_t{T} * kK * 4;
  const std::int64_t C = n / kSpan, W = M * C;
  const int t = static_cast<int>(threadIdx.x);
  __shared__ unsigned ticket;
  if (t == 0) ticket = atomicAdd(counters, 1u);
  __syncthreads();
  const std::int64_t k = ticket;
  unsigned* const arrived = counters + 2;
  if (k < W) {
    const float* chunk = x + (k / C) * n + (k % C) * kSpan;
    float v[4 * kK];
#pragma unroll
    for (int g = 0; g < kK; ++g) {
      const float4 q = load_hinted<L2Hint::Reread>(chunk + (g * T + t) * 4);
      v[4 * g] = q.x, v[4 * g + 1] = q.y, v[4 * g + 2] = q.z, v[4 * g + 3] = q.w;
    }
    const FastMergeState st = chunk_state<T, kK, false>(v);
    if (t == 0) {
      chunk_states[k] = st;
      __threadfence();  // the state before the count
      atomicAdd(arrived + k / C, 1u);
    }
  }
  if (k >= lag) {
    const std::int64_t j = k - lag, row = j / C, c = j % C;
    if (t == 0) {
      const volatile unsigned* count = arrived + row;
      while (static_cast<std::int64_t>(*count) < C) __nanosleep(64);
      __threadfence();  // the count before the states
    }
    __syncthreads();
    const State s = merge_chunks<T, KernelMutation::None>(chunk_states + row * C, C, c);
    const float m_part = load_state_cg(chunk_states + j).s.m;
    const float scale = fast_part_scale(m_part, s);
    if (c == 0 && t == 0) row_state[row] = s;
    const float* chunk = x + row * n + c * kSpan;
    float* out_chunk = y + row * n + c * kSpan;
#pragma unroll
    for (int g = 0; g < kK; ++g) {
      const float4 q = load_hinted<L2Hint::LastUse>(chunk + (g * T + t) * 4);
      const float in[4] = {q.x, q.y, q.z, q.w};
      float out[4];
      fast_outputs4(in, m_part, scale, out);
      store_hinted<L2Hint::LastUse>(out_chunk + (g * T + t) * 4,
                                    make_float4(out[0], out[1], out[2], out[3]));
    }
  }
  if (t == 0) __threadfence();  // this block's count of its row before its departure
  if (t == 0 && atomicAdd(counters + 1, 1u) == gridDim.x - 1) {
    for (std::int64_t r = 0; r < M + 2; ++r) counters[r] = 0;  // every block has left its wait
  }
}

/// Deterministic values of spread about 10 (timing and bit checks only, not N(0, 10)).
__global__ void fill_values(float* x, std::int64_t count) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ static_cast<unsigned>(i >> 32);
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
    x[i] = (static_cast<float>(h) * 0x1p-32f - 0.5f) * 35.0f;
  }
}

/// Reads `bytes` of a buffer `passes` times in one launch (float4s, grid-stride, L2 only): the
/// read rate of HBM (a buffer far beyond L2, one pass) or of L2 (a buffer it holds, many passes).
__global__ void read_passes(const float4* __restrict__ p, std::int64_t count, int passes,
                            float* sink) {
  float acc = 0.0f;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (int r = 0; r < passes; ++r)
    for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
         i += stride) {
      const float4 v = __ldcg(p + i);
      acc += (v.x + v.y) + (v.z + v.w);
    }
  if (acc == -1.0f) sink[0] = acc;
}

/// GB/s of read_passes over `bytes` read `passes` times (median of 9 launches after a warm-up).
double read_rate(const float4* buffer, std::size_t bytes, int passes, float* sink) {
  int sms = 0;
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const auto count = static_cast<std::int64_t>(bytes / sizeof(float4));
  cudaEvent_t start, stop;
  OSVS_CUDA_CHECK(cudaEventCreate(&start));
  OSVS_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int rep = 0; rep < 10; ++rep) {
    OSVS_CUDA_CHECK(cudaEventRecord(start));
    read_passes<<<sms * 8, 256>>>(buffer, count, passes, sink);
    OSVS_CUDA_CHECK(cudaGetLastError());
    OSVS_CUDA_CHECK(cudaEventRecord(stop));
    OSVS_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    OSVS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (rep > 0) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return static_cast<double>(bytes) * passes / (times[times.size() / 2] * 1e6);
}

int resident_per_sm(const void* kernel, int threads, std::size_t smem) {
  int per_sm = 0;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem)));
  OSVS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  return per_sm;
}

void print(const char* shape, const std::string& what, const LaunchTiming& t,
           std::int64_t elements) {
  std::printf("%-12s %-46s %9.4f ms %9.4f ms %7.1f%% %7.1f G elements/s\n", shape, what.c_str(),
              t.ms, t.copy_ms, 100.0 * t.fraction_of_copy,
              static_cast<double>(elements) / t.ms / 1e6);
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
    scale = cluster_push_exchange<KernelMutation::None>(C, b, row, mine, row_state, inbox, result)
                .scale;
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
  const auto kernel = fast_cluster_shared_kernel<float, T, K, KernelMutation::None>;
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

/// streamed_movement on M x n, chunks of 8192 (256 threads), lag `lag` chunks.
template <Hints HINTS>
void streamed(const char* shape, std::int64_t M, std::int64_t n, std::int64_t lag, float* sink) {
  constexpr int T = 256;
  const std::int64_t W = M * n / kSpanOf<T>;
  const std::string what = lag == 0 ? std::string("data movement: a block a chunk, read + write")
                                    : "data movement: reread lagging " + std::to_string(lag) +
                                          " chunks (" + std::to_string(lag * kSpanOf<T> * 4 >> 20) +
                                          " MiB)" +
                                          (HINTS == Hints::All      ? ", L2 hints"
                                           : HINTS == Hints::Stores ? ", last-use hints"
                                                                    : "");
  print(shape, what,
        time_launch_against_copy(M, n,
                                 [&](const float* x, float* y) {
                                   streamed_movement<T, HINTS>
                                       <<<static_cast<unsigned>(W + lag), T>>>(x, y, W, lag, sink);
                                   OSVS_CUDA_CHECK(cudaGetLastError());
                                 }),
        M * n);
}

/// streamed_arithmetic on M x n, chunks of 8192 (256 threads), lag `lag` chunks.
void streamed_with_arithmetic(const char* shape, std::int64_t M, std::int64_t n, std::int64_t lag) {
  constexpr int T = 256;
  const std::int64_t W = M * n / kSpanOf<T>;
  FastMergeState* states = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&states, W * sizeof(FastMergeState)));
  OSVS_CUDA_CHECK(cudaMemset(states, 0, W * sizeof(FastMergeState)));
  print(shape, "streamed with arithmetic, lag " + std::to_string(lag) + " chunks, L2 hints",
        time_launch_against_copy(M, n,
                                 [&](const float* x, float* y) {
                                   streamed_arithmetic<T><<<static_cast<unsigned>(W + lag), T>>>(
                                       x, y, W, lag, states);
                                   OSVS_CUDA_CHECK(cudaGetLastError());
                                 }),
        M * n);
  OSVS_CUDA_CHECK(cudaFree(states));
}

/// streamed_split on M x n against the two launches of the same chunks (fast_chunk_state_kernel +
/// fast_chunk_output_kernel, T threads): the number of differing outputs, then the time.
template <int T>
void streamed_split_rows(const char* shape, std::int64_t M, std::int64_t n, std::int64_t lag) {
  constexpr std::int64_t kSpan = std::int64_t{T} * kK * 4;
  const std::int64_t C = n / kSpan, W = M * C;
  if (lag < C) throw std::invalid_argument("streamed_split_rows: a lag below C could deadlock");
  const auto N = static_cast<std::size_t>(M * n);
  float *x = nullptr, *y = nullptr, *y_ref = nullptr;
  FastMergeState* states = nullptr;
  unsigned* counters = nullptr;
  State* row_state = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&x, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&y, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&y_ref, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&states, W * sizeof(FastMergeState)));
  OSVS_CUDA_CHECK(cudaMalloc(&counters, (M + 2) * sizeof(unsigned)));
  OSVS_CUDA_CHECK(cudaMalloc(&row_state, M * sizeof(State)));
  OSVS_CUDA_CHECK(cudaMemset(counters, 0, (M + 2) * sizeof(unsigned)));
  fill_values<<<1024, 256>>>(x, static_cast<std::int64_t>(N));
  OSVS_CUDA_CHECK(cudaGetLastError());
  fast_chunk_state_kernel<float, T, kK, KernelMutation::None>
      <<<static_cast<unsigned>(W), T>>>(x, n, C, states);
  OSVS_CUDA_CHECK(cudaGetLastError());
  fast_chunk_output_kernel<float, T, kK, KernelMutation::None>
      <<<static_cast<unsigned>(W), T>>>(x, y_ref, row_state, n, C, states);
  OSVS_CUDA_CHECK(cudaGetLastError());
  const auto launch = [&](const float* in, float* out) {
    streamed_split<T>
        <<<static_cast<unsigned>(W + lag), T>>>(in, out, row_state, M, n, lag, states, counters);
    OSVS_CUDA_CHECK(cudaGetLastError());
  };
  std::size_t differing = 0;
  for (int rep = 0; rep < 2; ++rep) {  // the second launch checks that the counters were zeroed
    OSVS_CUDA_CHECK(cudaMemset(y, 0, N * sizeof(float)));
    launch(x, y);
    OSVS_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::uint32_t> a(N), b(N);
    OSVS_CUDA_CHECK(cudaMemcpy(a.data(), y, N * sizeof(float), cudaMemcpyDeviceToHost));
    OSVS_CUDA_CHECK(cudaMemcpy(b.data(), y_ref, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < N; ++i) differing += a[i] != b[i];
  }
  std::vector<unsigned> left(static_cast<std::size_t>(M + 2));
  OSVS_CUDA_CHECK(
      cudaMemcpy(left.data(), counters, left.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  const bool zeroed = std::all_of(left.begin(), left.end(), [](unsigned u) { return u == 0; });
  std::printf(
      "%-12s streamed split rows, %d threads, lag %lld chunks: %zu outputs differ from the "
      "two launches (two launches), counters %s\n",
      shape, T, static_cast<long long>(lag), differing, zeroed ? "zeroed" : "NOT ZEROED");
  print(shape,
        "streamed split, " + std::to_string(T) + " threads, lag " + std::to_string(lag) + " chunks",
        time_launch_against_copy(M, n, launch), M * n);
  cudaFree(x);
  cudaFree(y);
  cudaFree(y_ref);
  cudaFree(states);
  cudaFree(counters);
  cudaFree(row_state);
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
  const bool policy_only = argc > 1 && std::string(argv[1]) == "policy";
  std::printf("%-12s %-46s %12s %12s %8s %19s\n", "shape", "launch", "time", "copy", "of copy",
              "rate");
  struct Shape {
    std::int64_t M, n;
    const char* name;
  };
  const Shape shapes[] = {{64, std::int64_t{1} << 20, "64x1048576"}, {1024, 32768, "1024x32768"}};
  State* row_state = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&row_state, 64 * 2 * 1024 * sizeof(State)));  // 8192-element rows
  if (argc > 1 && std::string(argv[1]) == "streamed") {
    const std::int64_t big = std::int64_t{1} << 20;
    for (const std::int64_t lag : {160, 192, 256, 384})
      streamed_split_rows<256>("64x1048576", 64, big, lag);
    for (const std::int64_t lag : {80, 96, 128, 192})
      streamed_split_rows<512>("64x1048576", 64, big, lag);
    for (const std::int64_t lag : {8, 16, 64})
      streamed_split_rows<256>("1024x32768", 1024, 32768, lag);
    OSVS_CUDA_CHECK(cudaFree(row_state));
    return 0;
  }
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
  // the streamed ceiling: what a second read of x costs when L2 is meant to serve it
  float* sink = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&sink, sizeof(float)));
  const std::int64_t big = std::int64_t{1} << 20;
  streamed<Hints::None>("64x1048576", 64, big, 0, sink);
  for (const std::int64_t lag : {128, 512, 4096})
    streamed<Hints::None>("64x1048576", 64, big, lag, sink);
  for (const std::int64_t lag : {128, 512})
    streamed<Hints::Stores>("64x1048576", 64, big, lag, sink);
  for (const std::int64_t lag : {64, 128, 128, 128, 160, 192, 256, 512, 1024})
    streamed<Hints::All>("64x1048576", 64, big, lag, sink);
  for (const std::int64_t lag : {128, 192}) streamed_with_arithmetic("64x1048576", 64, big, lag);
  float4* buffer = nullptr;
  const std::size_t hbm_bytes = std::size_t{1} << 30;
  OSVS_CUDA_CHECK(cudaMalloc(&buffer, hbm_bytes));
  OSVS_CUDA_CHECK(cudaMemset(buffer, 0, hbm_bytes));
  std::printf("read rates (GB/s, __ldcg, %d blocks of 256 an SM):\n", 8);
  std::printf("  HBM, 1 GiB once:      %8.0f\n", read_rate(buffer, hbm_bytes, 1, sink));
  for (const std::size_t mib : {4, 16, 32, 48})
    std::printf("  L2?, %2zu MiB x 32:     %8.0f\n", mib, read_rate(buffer, mib << 20, 32, sink));
  OSVS_CUDA_CHECK(cudaFree(buffer));
  OSVS_CUDA_CHECK(cudaFree(sink));
  OSVS_CUDA_CHECK(cudaFree(row_state));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_fast_cluster_probe: %s\n", e.what());
  return 1;
}
