// What L2 can serve of a second read of x (osvs issue 14): the physical question behind any
// split-row design that reads a chunk once for its state and once more for its outputs, hoping
// that the second read hits L2 instead of HBM. Answered at 2026-12-01 in
// reports/gpu/2026-12-01-l2-and-folds.
//
//   (default)  read rates: HBM (1 GiB once) against buffers of 4 ... 48 MiB read 32 times;
//              the streamed ceiling on 64 x 2^20: chunks of 8192 read, then read again LAG chunks
//              later and written, with no arithmetic and no waits, by lag and L2 hint; the same
//              stream with the split rows' arithmetic (two exps an element, still no waits)
//   split      split rows streamed through L2 in one launch, in ticket order, each output item
//              waiting for its row's chunk states: checked bit for bit against the two launches
//              of the same chunks (fast_chunk_state_kernel + fast_chunk_output_kernel), then timed
//
// Timing only, apart from the bit check of `split`. Run on a GPU by hand.
// usage: osvs_l2_reread_probe [split]
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

#include "cuda_check.cuh"
#include "fast_kernels.cuh"
#include "probe_report.h"

namespace osvs::cuda::fast {
namespace {

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
    const State s = merge_chunks<T, FastSchedule>(chunk_states + row * C, C, c);
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
  fast_chunk_state_kernel<float, T, kK, FastSchedule>
      <<<static_cast<unsigned>(W), T>>>(x, n, C, states);
  OSVS_CUDA_CHECK(cudaGetLastError());
  fast_chunk_output_kernel<float, T, kK, FastSchedule>
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

}  // namespace
}  // namespace osvs::cuda::fast

int main(int argc, char** argv) try {
  using namespace osvs::cuda::fast;
  const std::string mode = argc > 1 ? argv[1] : "";
  if (argc > 2 || (mode != "" && mode != "split"))
    throw std::invalid_argument("usage: osvs_l2_reread_probe [split]");
  std::printf("%-12s %-46s %12s %12s %8s %19s\n", "shape", "launch", "time", "copy", "of copy",
              "rate");
  if (mode == "split") {
    const std::int64_t big = std::int64_t{1} << 20;
    for (const std::int64_t lag : {160, 192, 256, 384})
      streamed_split_rows<256>("64x1048576", 64, big, lag);
    for (const std::int64_t lag : {80, 96, 128, 192})
      streamed_split_rows<512>("64x1048576", 64, big, lag);
    for (const std::int64_t lag : {8, 16, 64})
      streamed_split_rows<256>("1024x32768", 1024, 32768, lag);
    return 0;
  }
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
  std::printf("  1 GiB once (HBM):            %8.0f\n", read_rate(buffer, hbm_bytes, 1, sink));
  for (const std::size_t mib : {4, 16, 32, 48})
    std::printf("  %2zu MiB x 32 (L2 holds it): %8.0f\n", mib,
                read_rate(buffer, mib << 20, 32, sink));
  OSVS_CUDA_CHECK(cudaFree(buffer));
  OSVS_CUDA_CHECK(cudaFree(sink));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_l2_reread_probe: %s\n", e.what());
  return 1;
}
