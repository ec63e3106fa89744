// A diagnostic of the fast kernel's split rows (osvs issue 14): how a long row's chunk states
// can meet without the lockstep of the cooperative persistent kernel. Earlier questions of this
// probe (cluster grouping, staged block rows, cluster shapes, a lagged second read from L2) were
// answered at the commits its reports name (reports/gpu/2026-12-01-staged, -split-pipeline,
// -split-exchange).
//
// On 64 x 2^20 and 1024 x 32768: the launcher; the split layout's chunks (blocks of 512 and of
// 256 threads, 16384 and 8192 elements) as block rows with no exchange (the ceiling of each
// holding); and the split kernels in ticket order, the chunk in registers
// (fast_split_ticket_kernel) or in shared memory (fast_split_shared_kernel), the states met
// through the row's counters or tagged (exchange_chunk_states).
//
// Every split variant is first checked bit for bit against the two-launch path of the same
// chunks (fast_chunk_state_kernel + fast_chunk_output_kernel, whose bits the CPU model's tests
// pin), and its counters and ticket must be zero again after it. Run on a GPU by hand.
// usage: osvs_fast_cluster_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "fast_kernels.cuh"
#include "osvs/kernels/bandwidth.h"
#include "osvs/kernels/fast_launch.h"

namespace osvs::cuda::fast {
namespace {

constexpr int kK = kFastBlockVec;
constexpr KernelMutation kNone = KernelMutation::None;
template <int T>
constexpr std::int64_t kSpanOf = std::int64_t{T} * kK * 4;

/// Block rows of T * kK * 4 elements, a block a row, staged and kept in shared memory (the
/// shared split kernel's holding with no exchange).
template <int T>
__global__ void __launch_bounds__(T, 1536 / T)
    shared_block_rows(const float* __restrict__ x, float* __restrict__ y,
                      State* __restrict__ row_state) {
  constexpr std::int64_t n = kSpanOf<T>;
  extern __shared__ __align__(128) unsigned char staging[];
  float* const terms = reinterpret_cast<float*>(staging);
  __shared__ TxBarrier landed;
  const std::int64_t row = blockIdx.x;
  if (threadIdx.x == 0) landed.init();
  __syncthreads();
  if (threadIdx.x == 0) landed.stage(terms, x + row * n, n * sizeof(float));
  landed.wait(0);
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
  __shared__ TxBarrier landed;
  const std::int64_t row = blockIdx.x;
  if (t == 0) landed.init();
  __syncthreads();
  if (t == 0) landed.stage(staged, x + row * n, n * sizeof(float));
  landed.wait(0);
  float v[4 * kK];
  read_staged<T, kK>(staged, n, t, v);
  const State st = fast_row_state(chunk_state<T, kK, true>(v));
  if (t == 0) row_state[row] = st;
  store_chunk<T, kK, true>(y + row * n, n, 0, t, true, v, st.m, fast_part_scale(st.m, st));
}

/// The split workspace of M rows of C chunks: states, the two counters a row, the gate.
struct Workspace {
  std::int64_t M, C;
  FastMergeState* states = nullptr;
  unsigned* counters = nullptr;  ///< arrived[M], departed[M]
  unsigned long long* gate = nullptr;
  Workspace(std::int64_t rows, std::int64_t chunks) : M(rows), C(chunks) {
    OSVS_CUDA_CHECK(cudaMalloc(&states, M * C * sizeof(FastMergeState)));
    OSVS_CUDA_CHECK(cudaMemset(states, 0, M * C * sizeof(FastMergeState)));
    OSVS_CUDA_CHECK(cudaMalloc(&counters, 2 * M * sizeof(unsigned)));
    OSVS_CUDA_CHECK(cudaMemset(counters, 0, 2 * M * sizeof(unsigned)));
    OSVS_CUDA_CHECK(cudaMalloc(&gate, sizeof(unsigned long long)));
    OSVS_CUDA_CHECK(cudaMemset(gate, 0, sizeof(unsigned long long)));
  }
  ~Workspace() {
    cudaFree(states);
    cudaFree(counters);
    cudaFree(gate);
  }
  unsigned* arrived() const { return counters; }
  unsigned* departed() const { return counters + M; }
  /// Whether the counters and the gate's ticket are zero (as a launch must leave them).
  bool reset() const {
    std::vector<unsigned> h(2 * M);
    unsigned long long g = 0;
    OSVS_CUDA_CHECK(
        cudaMemcpy(h.data(), counters, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    OSVS_CUDA_CHECK(cudaMemcpy(&g, gate, sizeof g, cudaMemcpyDeviceToHost));
    return (g & 0xffffffffull) == 0 &&
           std::all_of(h.begin(), h.end(), [](unsigned v) { return v == 0; });
  }
};

using Launcher = std::function<void(const float* x, float* y, State* rs, const Workspace& w)>;

struct Variant {
  std::string name;
  int threads;
  Launcher launch;
};

int sm_count() {
  int sms = 0;
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return sms;
}

int resident_per_sm(const void* kernel, int threads, std::size_t smem) {
  int per_sm = 0;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem)));
  OSVS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  return per_sm;
}

template <int T>
void two_launch(const float* x, float* y, State* rs, std::int64_t n, const Workspace& w) {
  const auto grid = static_cast<unsigned>(w.M * w.C);
  fast_chunk_state_kernel<float, T, kK, kNone><<<grid, T>>>(x, n, w.C, w.states);
  OSVS_CUDA_CHECK(cudaGetLastError());
  fast_chunk_output_kernel<float, T, kK, kNone><<<grid, T>>>(x, y, rs, n, w.C, w.states);
  OSVS_CUDA_CHECK(cudaGetLastError());
}

/// A split kernel of T threads with `smem` dynamic bytes, launched a block a chunk.
template <int T, class Kernel>
Variant split_variant(std::string name, Kernel kernel, std::size_t smem, std::int64_t n) {
  const int per_sm = resident_per_sm(reinterpret_cast<const void*>(kernel), T, smem);
  const std::int64_t resident = std::int64_t{sm_count()} * per_sm;
  name += " (" + std::to_string(per_sm) + "/SM)";
  return {name, T, [=](const float* x, float* y, State* rs, const Workspace& w) {
            if (resident < w.C) throw std::runtime_error("a row's blocks do not fit");
            kernel<<<static_cast<unsigned>(w.M * w.C), T, smem>>>(
                x, y, rs, w.M, n, w.C, w.states, w.arrived(), w.departed(), w.gate);
            OSVS_CUDA_CHECK(cudaGetLastError());
          }};
}

template <bool TAGS>
Variant ticket_registers(std::int64_t n) {
  return split_variant<kFastSplitThreads>(
      std::string("512 registers, ") + (TAGS ? "tagged" : "counters"),
      fast_split_ticket_kernel<float, kFastSplitThreads, kK, kNone, false, TAGS>, 0, n);
}

template <int T, bool TAGS>
Variant ticket_shared(std::int64_t n) {
  return split_variant<T>(std::to_string(T) + " shared, " + (TAGS ? "tagged" : "counters"),
                          fast_split_shared_kernel<float, T, kK, kNone, TAGS>,
                          shared_cluster_bytes<float>(kSpanOf<T>), n);
}

/// Two chunks a block (fast_split_pair_kernel): the first in registers, the second in shared
/// memory.
Variant ticket_pairs(std::int64_t n) {
  constexpr int T = kFastSplitThreads;
  const auto kernel = fast_split_pair_kernel<float, T, kK, kNone>;
  const std::size_t smem = kSpanOf<T> * sizeof(float);
  const int per_sm = resident_per_sm(reinterpret_cast<const void*>(kernel), T, smem);
  const std::int64_t resident = std::int64_t{sm_count()} * per_sm;
  return {"512 pairs, registers + shared (" + std::to_string(per_sm) + "/SM)", T,
          [=](const float* x, float* y, State* rs, const Workspace& w) {
            const std::int64_t P = (w.C + 1) / 2;
            if (resident < P) throw std::runtime_error("a row's blocks do not fit");
            kernel<<<static_cast<unsigned>(w.M * P), T, smem>>>(x, y, rs, w.M, n, w.C, w.states,
                                                                w.arrived(), w.departed(), w.gate);
            OSVS_CUDA_CHECK(cudaGetLastError());
          }};
}

/// The lagged kernel (fast_split_lagged_kernel), outputs `lag_rows` rows behind the states.
template <int T>
Variant lagged(std::int64_t n, std::int64_t lag_rows) {
  const auto kernel = fast_split_lagged_kernel<float, T, kK, kNone>;
  const int per_sm = resident_per_sm(reinterpret_cast<const void*>(kernel), T, 0);
  return {std::to_string(T) + " lagged " + std::to_string(lag_rows) + " rows (" +
              std::to_string(per_sm) + "/SM)",
          T, [=](const float* x, float* y, State* rs, const Workspace& w) {
            const std::int64_t W = w.M * w.C;
            const std::int64_t L = std::min(W, std::max(lag_rows * w.C, w.C - 1));
            kernel<<<static_cast<unsigned>(2 * W), T>>>(x, y, rs, n, w.C, W, L, w.states,
                                                        w.arrived(), w.departed(), w.gate);
            OSVS_CUDA_CHECK(cudaGetLastError());
          }};
}

void print(const char* shape, const std::string& what, const LaunchTiming& t) {
  std::printf("%-12s %-52s %9.4f ms %9.4f ms %7.1f%%\n", shape, what.c_str(), t.ms, t.copy_ms,
              100.0 * t.fraction_of_copy);
}

/// Each variant checked against the two-launch bits of its chunks, then all timed.
void study(const char* shape, std::int64_t M, std::int64_t n,
           const std::vector<Variant>& variants) {
  const auto N = static_cast<std::size_t>(M * n);
  std::vector<float> host(N);
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  for (float& v : host) v = normal(rng);
  float *x = nullptr, *y = nullptr;
  State* rs = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&x, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&y, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&rs, M * sizeof(State)));
  OSVS_CUDA_CHECK(cudaMemcpy(x, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> want(N), got(N);
  for (const Variant& v : variants) {
    Workspace w(M, (n + v.threads * kK * 4 - 1) / (v.threads * kK * 4));
    if (v.threads == 512)
      two_launch<512>(x, y, rs, n, w);
    else
      two_launch<256>(x, y, rs, n, w);
    OSVS_CUDA_CHECK(cudaMemcpy(want.data(), y, N * sizeof(float), cudaMemcpyDeviceToHost));
    OSVS_CUDA_CHECK(cudaMemset(y, 0, N * sizeof(float)));
    v.launch(x, y, rs, w);
    OSVS_CUDA_CHECK(cudaDeviceSynchronize());
    OSVS_CUDA_CHECK(cudaMemcpy(got.data(), y, N * sizeof(float), cudaMemcpyDeviceToHost));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < N; ++i)
      differ += std::memcmp(&got[i], &want[i], sizeof(float)) != 0;
    const bool reset = w.reset();
    std::printf("%-12s %-52s check: %zu outputs differ from two launches, counters %s\n", shape,
                v.name.c_str(), differ, reset ? "reset" : "NOT RESET");
    if (differ != 0 || !reset) throw std::runtime_error(v.name + ": failed its check");
  }
  cudaFree(x);
  cudaFree(y);
  for (const Variant& v : variants) {
    Workspace w(M, (n + v.threads * kK * 4 - 1) / (v.threads * kK * 4));
    print(shape, v.name, time_launch_against_copy(M, n, [&](const float* xx, float* yy) {
            v.launch(xx, yy, rs, w);
          }));
    if (!w.reset()) throw std::runtime_error(v.name + ": counters not reset after timing");
  }
  cudaFree(rs);
}

/// A block row kernel of T threads on the matrix seen as rows of its span: the ceiling.
template <int T, class Kernel>
void ceiling(const char* shape, const char* what, Kernel kernel, std::size_t smem, std::int64_t M,
             std::int64_t n, State* row_state) {
  const std::int64_t rows = M * n / kSpanOf<T>;
  const int per_sm = resident_per_sm(reinterpret_cast<const void*>(kernel), T, smem);
  print(shape, std::string(what) + " (" + std::to_string(per_sm) + "/SM)",
        time_launch_against_copy(rows, kSpanOf<T>, [&](const float* x, float* y) {
          kernel<<<static_cast<unsigned>(rows), T, smem>>>(x, y, row_state);
          OSVS_CUDA_CHECK(cudaGetLastError());
        }));
}

/// The clock of this SM and the device's time (ns), for the timeline below.
__device__ __forceinline__ long long device_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

enum class Exchange { None, Counters, Tags };
constexpr int kStamps = 7;  ///< start, ticket, landed, state, published, merged, stored

/// fast_split_shared_kernel's steps with a clock stamp after each (thread 0; clock64 cycles,
/// and the device time at publishing): where a block's life goes. None: each chunk scaled by
/// its own state (no exchange: timing only).
template <int T, Exchange X>
__global__ void __launch_bounds__(T, 1536 / T)
    timed_split_shared(const float* __restrict__ x, float* __restrict__ y,
                       State* __restrict__ row_state, std::int64_t M, std::int64_t n,
                       std::int64_t C, FastMergeState* chunk_states, unsigned* arrived,
                       unsigned* departed, unsigned long long* gate, long long* stamps) {
  const int t = static_cast<int>(threadIdx.x);
  constexpr std::int64_t kSpan = kSpanOf<T>;
  long long clk[kStamps];
  clk[0] = clock64();
  extern __shared__ __align__(128) unsigned char staging[];
  float* const terms = reinterpret_cast<float*>(staging);
  __shared__ TxBarrier landed;
  if (t == 0) landed.init();
  const Ticket ticket = take_ticket(gate, M * C);
  clk[1] = clock64();
  const std::int64_t row = ticket.item / C, c = ticket.item % C;
  const std::int64_t base = c * kSpan;
  if (t == 0) landed.stage(terms, x + row * n + base, kSpan * sizeof(float));
  landed.wait(0);
  clk[2] = clock64();
  const FastMergeState mine = shared_part_state<T, kK>(terms, terms, kSpan);
  clk[3] = clock64();
  long long published_ns = 0;
  State s = fast_row_state(mine);
  FastMergeState* states = chunk_states + row * C;
  if constexpr (X == Exchange::Tags) {
    publish_tagged(states + c, mine, ticket.tag);
    clk[4] = clock64();
    published_ns = device_ns();
    s = merge_row_states<T, kNone>(
        C, c, [&](std::int64_t i) { return await_tagged(states + i, ticket.tag); });
  } else if constexpr (X == Exchange::Counters) {
    announce(states + c, mine, arrived + row);
    clk[4] = clock64();
    published_ns = device_ns();
    await_row(arrived + row, C);
    s = merge_chunks<T, kNone>(states, C, c);
    leave(arrived + row, departed + row, C);
  } else {
    clk[4] = clock64();
    published_ns = device_ns();
  }
  clk[5] = clock64();
  if (c == 0 && t == 0) row_state[row] = s;
  store_shared_terms<T, kK>(y + row * n, n, base, terms, fast_part_scale(mine.s.m, s));
  clk[6] = clock64();
  if (t == 0) {
    long long* out = stamps + ticket.item * (kStamps + 1);
    for (int i = 0; i < kStamps; ++i) out[i] = clk[i];
    out[kStamps] = published_ns;
  }
}

/// Runs timed_split_shared once (after a warm-up) on M x n and prints the mean and the 10th,
/// 50th and 90th percentiles of each step's duration, and of a row's spread of publishing times.
template <int T, Exchange X>
void timeline(const char* shape, const char* what, std::int64_t M, std::int64_t n,
              State* row_state) {
  const std::int64_t C = n / kSpanOf<T>, W = M * C;
  const auto kernel = timed_split_shared<T, X>;
  const std::size_t smem = kSpanOf<T> * sizeof(float);
  resident_per_sm(reinterpret_cast<const void*>(kernel), T, smem);
  const auto N = static_cast<std::size_t>(M * n);
  float *x = nullptr, *y = nullptr;
  long long* stamps = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&x, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&y, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMemset(x, 0, N * sizeof(float)));
  OSVS_CUDA_CHECK(cudaMalloc(&stamps, W * (kStamps + 1) * sizeof(long long)));
  Workspace w(M, C);
  cudaEvent_t start, stop;
  OSVS_CUDA_CHECK(cudaEventCreate(&start));
  OSVS_CUDA_CHECK(cudaEventCreate(&stop));
  float ms = 0;
  for (int rep = 0; rep < 3; ++rep) {
    OSVS_CUDA_CHECK(cudaEventRecord(start));
    kernel<<<static_cast<unsigned>(W), T, smem>>>(x, y, row_state, M, n, C, w.states, w.arrived(),
                                                  w.departed(), w.gate, stamps);
    OSVS_CUDA_CHECK(cudaGetLastError());
    OSVS_CUDA_CHECK(cudaEventRecord(stop));
    OSVS_CUDA_CHECK(cudaEventSynchronize(stop));
    OSVS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  }
  std::vector<long long> h(static_cast<std::size_t>(W * (kStamps + 1)));
  OSVS_CUDA_CHECK(
      cudaMemcpy(h.data(), stamps, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  int khz = 0;
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  const auto summary = [&](const char* step, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    double mean = 0;
    for (double d : v) mean += d / static_cast<double>(v.size());
    const auto at = [&](double q) { return v[static_cast<std::size_t>(q * (v.size() - 1))]; };
    std::printf("%-12s %-30s %-10s mean %7.2f  p10 %7.2f  p50 %7.2f  p90 %7.2f us\n", shape, what,
                step, mean, at(0.1), at(0.5), at(0.9));
  };
  const char* steps[] = {"ticket", "landed", "state", "publish", "merged", "stored"};
  std::printf("%-12s %-30s %.4f ms a launch, clock %d MHz\n", shape, what, ms, khz / 1000);
  for (int k = 1; k < kStamps; ++k) {
    std::vector<double> v;
    for (std::int64_t b = 0; b < W; ++b) {
      const long long* r = h.data() + b * (kStamps + 1);
      v.push_back(static_cast<double>(r[k] - r[k - 1]) / (khz / 1000.0));
    }
    summary(steps[k - 1], v);
  }
  std::vector<double> life, spread;
  for (std::int64_t b = 0; b < W; ++b) {
    const long long* r = h.data() + b * (kStamps + 1);
    life.push_back(static_cast<double>(r[kStamps - 1] - r[0]) / (khz / 1000.0));
  }
  for (std::int64_t row = 0; row < M; ++row) {
    long long lo = 0, hi = 0;
    for (std::int64_t c = 0; c < C; ++c) {
      const long long p = h[static_cast<std::size_t>((row * C + c) * (kStamps + 1) + kStamps)];
      lo = c == 0 ? p : std::min(lo, p);
      hi = c == 0 ? p : std::max(hi, p);
    }
    spread.push_back(static_cast<double>(hi - lo) / 1000.0);
  }
  summary("life", life);
  summary("row spread", spread);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(x);
  cudaFree(y);
  cudaFree(stamps);
}

}  // namespace
}  // namespace osvs::cuda::fast

int main() try {
  using namespace osvs::cuda::fast;
  using osvs::State;
  std::printf("%-12s %-52s %12s %12s %8s\n", "shape", "launch", "time", "copy", "of copy");
  struct Shape {
    std::int64_t M, n;
    const char* name;
  };
  const Shape shapes[] = {{64, std::int64_t{1} << 20, "64x1048576"}, {1024, 32768, "1024x32768"}};
  if (osvs::fast_plan(shapes[0].n).chunk_span() != kSpanOf<osvs::kFastSplitThreads>)
    throw std::logic_error("the probe's chunks are not the split plan's");
  State* row_state = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&row_state, 64 * 2 * 1024 * sizeof(State)));  // 8192-element rows
  for (const Shape& s : shapes) {
    const osvs::cuda::FastLaunchInfo info = osvs::cuda::describe_fast_launch(s.M, s.n);
    void* ws = nullptr;
    const std::size_t ws_bytes = osvs::cuda::fast_workspace_bytes(s.M, s.n);
    if (ws_bytes > 0) {
      OSVS_CUDA_CHECK(cudaMalloc(&ws, ws_bytes));
      OSVS_CUDA_CHECK(cudaMemset(ws, 0, ws_bytes));
    }
    print(s.name, std::string("the launcher (") + info.path + ")",
          osvs::time_launch_against_copy(s.M, s.n, [&](const float* x, float* y) {
            osvs::cuda::launch_fast_softmax(x, y, row_state, s.M, s.n, ws, nullptr);
          }));
    cudaFree(ws);
    ceiling<256>(s.name, "no exchange: 256 shared", shared_block_rows<256>,
                 kSpanOf<256> * sizeof(float), s.M, s.n, row_state);
    study(s.name, s.M, s.n,
          {ticket_shared<256, false>(s.n), ticket_pairs(s.n), lagged<512>(s.n, 2),
           lagged<512>(s.n, 8), lagged<256>(s.n, 8)});
  }
  OSVS_CUDA_CHECK(cudaFree(row_state));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_fast_cluster_probe: %s\n", e.what());
  return 1;
}
