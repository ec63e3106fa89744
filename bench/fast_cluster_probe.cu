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
    ceiling<512>(s.name, "no exchange: 512 staged, registers", staged_block_rows<512>,
                 kSpanOf<512> * sizeof(float), s.M, s.n, row_state);
    ceiling<512>(s.name, "no exchange: 512 shared", shared_block_rows<512>,
                 kSpanOf<512> * sizeof(float), s.M, s.n, row_state);
    ceiling<256>(s.name, "no exchange: 256 shared", shared_block_rows<256>,
                 kSpanOf<256> * sizeof(float), s.M, s.n, row_state);
    study(s.name, s.M, s.n,
          {ticket_registers<false>(s.n), ticket_registers<true>(s.n),
           ticket_shared<512, false>(s.n), ticket_shared<512, true>(s.n),
           ticket_shared<256, false>(s.n), ticket_shared<256, true>(s.n)});
  }
  OSVS_CUDA_CHECK(cudaFree(row_state));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_fast_cluster_probe: %s\n", e.what());
  return 1;
}
