// A diagnostic of the fast kernel's split rows (osvs issue 14): how a long row's chunk states
// can meet without the lockstep of the cooperative persistent kernel. Earlier questions of this
// probe (cluster grouping, staged block rows, cluster shapes) were answered at the commits its
// reports name (reports/gpu/2026-12-01-staged, -split-pipeline).
//
//   64 x 2^20 (C = 64)     the launcher's split rows (staged cooperative); the same chunks as
//                          staged block rows a block a chunk (no exchange: the ceiling); the
//                          split kernels in ticket order (fast_split_ticket_kernel, registers and
//                          staged); the lagged kernel (fast_split_lagged_kernel) for lags of 1, 2,
//                          4 and 8 rows, with and without L2 hints
//   1024 x 32768 (C = 2)   the launcher's cluster rows, then the split layout (two chunks of
//                          16384) in ticket order and lagged
//
// Every split variant is first checked bit for bit against the two-launch path of the same
// chunks (fast_chunk_state_kernel + fast_chunk_output_kernel, whose bits the CPU model's tests
// pin), and its counters must be zero again after it. Run on a GPU by hand.
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

constexpr int kT = kFastSplitThreads, kK = kFastBlockVec;
constexpr std::int64_t kChunk = std::int64_t{kT} * kK * 4;
constexpr KernelMutation kNone = KernelMutation::None;

/// Staged block rows of kChunk elements, a block a row: the split chunks' data movement with no
/// exchange (the probe's earlier ceiling, call 5 of reports/gpu/2026-12-01-split-pipeline).
__global__ void __launch_bounds__(kT, 2)
    staged_block_rows(const float* __restrict__ x, float* __restrict__ y,
                      State* __restrict__ row_state) {
  const int t = static_cast<int>(threadIdx.x);
  extern __shared__ __align__(128) unsigned char staging[];
  float* const staged = reinterpret_cast<float*>(staging);
  __shared__ TxBarrier landed;
  const std::int64_t row = blockIdx.x;
  if (t == 0) landed.init();
  __syncthreads();
  if (t == 0) landed.stage(staged, x + row * kChunk, kChunk * sizeof(float));
  landed.wait(0);
  float v[4 * kK];
  read_staged<kT, kK>(staged, kChunk, t, v);
  const State st = fast_row_state(chunk_state<kT, kK, true>(v));
  if (t == 0) row_state[row] = st;
  store_chunk<kT, kK, true>(y + row * kChunk, kChunk, 0, t, true, v, st.m,
                            fast_part_scale(st.m, st));
}

/// The split workspace of M rows of C chunks: states, the two counters a row, the ticket.
struct Workspace {
  std::int64_t M, C;
  FastMergeState* states = nullptr;
  unsigned* counters = nullptr;  ///< arrived[M], departed[M], tickets[1]
  Workspace(std::int64_t rows, std::int64_t chunks) : M(rows), C(chunks) {
    OSVS_CUDA_CHECK(cudaMalloc(&states, M * C * sizeof(FastMergeState)));
    OSVS_CUDA_CHECK(cudaMalloc(&counters, (2 * M + 1) * sizeof(unsigned)));
    OSVS_CUDA_CHECK(cudaMemset(counters, 0, (2 * M + 1) * sizeof(unsigned)));
  }
  ~Workspace() {
    cudaFree(states);
    cudaFree(counters);
  }
  unsigned* arrived() const { return counters; }
  unsigned* departed() const { return counters + M; }
  unsigned* tickets() const { return counters + 2 * M; }
  /// Whether every counter is zero (as a launch must leave them).
  bool zero() const {
    std::vector<unsigned> h(2 * M + 1);
    OSVS_CUDA_CHECK(
        cudaMemcpy(h.data(), counters, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return std::all_of(h.begin(), h.end(), [](unsigned v) { return v == 0; });
  }
};

using Launcher = std::function<void(const float* x, float* y, State* rs, const Workspace& w)>;

int resident_per_sm(const void* kernel, std::size_t smem) {
  int per_sm = 0;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem)));
  OSVS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kT, smem));
  return per_sm;
}

void two_launch(const float* x, float* y, State* rs, std::int64_t n, const Workspace& w) {
  const auto grid = static_cast<unsigned>(w.M * w.C);
  fast_chunk_state_kernel<float, kT, kK, kNone><<<grid, kT>>>(x, n, w.C, w.states);
  OSVS_CUDA_CHECK(cudaGetLastError());
  fast_chunk_output_kernel<float, kT, kK, kNone><<<grid, kT>>>(x, y, rs, n, w.C, w.states);
  OSVS_CUDA_CHECK(cudaGetLastError());
}

template <bool STAGED>
Launcher ticket(std::int64_t n) {
  const auto kernel = fast_split_ticket_kernel<float, kT, kK, kNone, STAGED>;
  const std::size_t smem = STAGED ? kChunk * sizeof(float) : 0;
  int sms = 0;
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int per_sm = resident_per_sm(reinterpret_cast<const void*>(kernel), smem);
  std::printf("(ticket kernel%s: %d blocks an SM, %d SMs)\n", STAGED ? ", staged" : "", per_sm,
              sms);
  return [=](const float* x, float* y, State* rs, const Workspace& w) {
    if (std::int64_t{sms} * per_sm < w.C) throw std::runtime_error("a row's blocks do not fit");
    kernel<<<static_cast<unsigned>(w.M * w.C), kT, smem>>>(x, y, rs, w.M, n, w.C, w.states,
                                                           w.arrived(), w.departed(), w.tickets());
    OSVS_CUDA_CHECK(cudaGetLastError());
  };
}

template <L2Hint FIRST, L2Hint SECOND, L2Hint OUT>
Launcher lagged(std::int64_t n, std::int64_t lag_rows) {
  return [=](const float* x, float* y, State* rs, const Workspace& w) {
    const std::int64_t W = w.M * w.C;
    const std::int64_t L = std::min(W, std::max<std::int64_t>(lag_rows * w.C, w.C - 1));
    fast_split_lagged_kernel<float, kT, kK, kNone, FIRST, SECOND, OUT>
        <<<static_cast<unsigned>(2 * W), kT>>>(x, y, rs, n, w.C, W, L, w.states, w.arrived(),
                                               w.departed(), w.tickets());
    OSVS_CUDA_CHECK(cudaGetLastError());
  };
}

void print(const char* shape, const std::string& what, const LaunchTiming& t) {
  std::printf("%-12s %-52s %9.4f ms %9.4f ms %7.1f%%\n", shape, what.c_str(), t.ms, t.copy_ms,
              100.0 * t.fraction_of_copy);
}

/// One shape's study: each split variant checked against the two-launch bits, then timed.
void study(const char* shape, std::int64_t M, std::int64_t n,
           const std::vector<std::pair<std::string, Launcher>>& variants) {
  const std::int64_t C = (n + kChunk - 1) / kChunk;
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
  Workspace w(M, C);
  two_launch(x, y, rs, n, w);
  std::vector<float> want(N), got(N);
  OSVS_CUDA_CHECK(cudaMemcpy(want.data(), y, N * sizeof(float), cudaMemcpyDeviceToHost));
  for (const auto& [name, launch] : variants) {
    OSVS_CUDA_CHECK(cudaMemset(y, 0, N * sizeof(float)));
    launch(x, y, rs, w);
    OSVS_CUDA_CHECK(cudaDeviceSynchronize());
    OSVS_CUDA_CHECK(cudaMemcpy(got.data(), y, N * sizeof(float), cudaMemcpyDeviceToHost));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < N; ++i)
      differ += std::memcmp(&got[i], &want[i], sizeof(float)) != 0;
    const bool zero = w.zero();
    std::printf("%-12s %-52s check: %zu outputs differ from two launches, counters %s\n", shape,
                name.c_str(), differ, zero ? "zero" : "NOT ZERO");
    if (differ != 0 || !zero) throw std::runtime_error(name + ": failed its check");
  }
  for (const auto& variant : variants)
    print(shape, variant.first, time_launch_against_copy(M, n, [&](const float* xx, float* yy) {
            variant.second(xx, yy, rs, w);
          }));
  print(shape, "two launches", time_launch_against_copy(M, n, [&](const float* xx, float* yy) {
          two_launch(xx, yy, rs, n, w);
        }));
  cudaFree(x);
  cudaFree(y);
  cudaFree(rs);
}

}  // namespace
}  // namespace osvs::cuda::fast

namespace {
struct Shape {
  std::int64_t M, n;
  const char* name;
};
}  // namespace

int main() try {
  using namespace osvs::cuda::fast;
  using osvs::State;
  using H = L2Hint;
  std::printf("%-12s %-52s %12s %12s %8s\n", "shape", "launch", "time", "copy", "of copy");
  constexpr std::int64_t kSplitRows = 64, kSplitCols = std::int64_t{1} << 20;
  constexpr std::int64_t kLongRows = 1024, kLongCols = 32768;
  if (osvs::fast_plan(kSplitCols).chunk_span() != kChunk || osvs::fast_plan(kSplitCols).vec != kK)
    throw std::logic_error("the probe's chunks are not the split plan's");
  State* row_state = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&row_state, kSplitRows * kSplitCols / kChunk * sizeof(State)));
  const Shape shapes[] = {{kSplitRows, kSplitCols, "64x1048576"},
                          {kLongRows, kLongCols, "1024x32768"}};
  for (const Shape& s : shapes) {
    const std::int64_t M = s.M, n = s.n;
    const osvs::cuda::FastLaunchInfo info = osvs::cuda::describe_fast_launch(M, n);
    std::printf("(launcher: %s, grid %lld)\n", info.path, static_cast<long long>(info.grid));
    void* ws = nullptr;
    const std::size_t ws_bytes = osvs::cuda::fast_workspace_bytes(M, n);
    if (ws_bytes > 0) {
      OSVS_CUDA_CHECK(cudaMalloc(&ws, ws_bytes));
      OSVS_CUDA_CHECK(cudaMemset(ws, 0, ws_bytes));
    }
    print(s.name, "the launcher",
          osvs::time_launch_against_copy(M, n, [&](const float* x, float* y) {
            osvs::cuda::launch_fast_softmax(x, y, row_state, M, n, ws, nullptr);
          }));
    cudaFree(ws);
  }
  const std::int64_t chunk_rows = kSplitRows * kSplitCols / kChunk;
  const int smem = static_cast<int>(kChunk * sizeof(float));
  resident_per_sm(reinterpret_cast<const void*>(staged_block_rows), smem);
  print("64x1048576", "its chunks as staged block rows, a block a chunk",
        osvs::time_launch_against_copy(chunk_rows, kChunk, [&](const float* x, float* y) {
          staged_block_rows<<<static_cast<unsigned>(chunk_rows), kT, smem>>>(x, y, row_state);
          OSVS_CUDA_CHECK(cudaGetLastError());
        }));
  for (const Shape& s : shapes) {
    const std::int64_t n = s.n;
    std::vector<std::pair<std::string, Launcher>> v;
    v.emplace_back("ticket order, registers", ticket<false>(n));
    v.emplace_back("ticket order, staged", ticket<true>(n));
    v.emplace_back("lagged 2 rows, no hints", lagged<H::Normal, H::Normal, H::Normal>(n, 2));
    for (std::int64_t lag : {1, 2, 4, 8})
      v.emplace_back("lagged " + std::to_string(lag) + " rows, keep/last/stream",
                     lagged<H::Reread, H::LastUse, H::LastUse>(n, lag));
    v.emplace_back("lagged 2 rows, keep/last/normal stores",
                   lagged<H::Reread, H::LastUse, H::Normal>(n, 2));
    if (n == kLongCols) {  // rows of 2 chunks: lags of 64 and 512 rows (4 and 32 MiB of x)
      v.emplace_back("lagged 64 rows, keep/last/stream",
                     lagged<H::Reread, H::LastUse, H::LastUse>(n, 64));
      v.emplace_back("lagged 512 rows, keep/last/stream",
                     lagged<H::Reread, H::LastUse, H::LastUse>(n, 512));
    }
    study(s.name, s.M, n, v);
  }
  OSVS_CUDA_CHECK(cudaFree(row_state));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_fast_cluster_probe: %s\n", e.what());
  return 1;
}
