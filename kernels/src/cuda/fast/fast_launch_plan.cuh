// The launch of the fast kernel family under a schedule policy (fast_schedule_policy.h): the plan
// of the row length picks the kernel (fast_plan.h): a cluster row is one launch with cluster
// dimensions (each block's part staged into shared memory by a bulk copy where rows are 16-byte
// aligned); a split plan runs in one cooperative launch where its rows can be staged and one
// row's blocks fit the device, else in two launches (FastSplitPath: the choice measured faster on
// the H200 in each case). Every CUDA call's status is checked.
//
// A header rather than part of fast_launch.cu because two translation units instantiate it:
// fast_launch.cu with the order as written (FastSchedule: launch_fast_softmax and its bf16 twin)
// and mutation/src/cuda/fast_mutants.cu with the mutants' policies, so that a mutant runs the
// kernel's own launch code, not a copy of it (kernels' CMake target osvs_fast_kernel_templates).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "../cuda_check.cuh"
#include "cluster_launch.cuh"
#include "fast_kernels.cuh"
#include "osvs/kernels/fast_launch.h"
#include "osvs/kernels/validate.h"

namespace osvs::cuda::fast {

constexpr int kWarpRowsPerBlock = 4;  // a warp per row: 4 rows (128 threads) a block
constexpr int kSplitT = kFastSplitThreads;
constexpr int kSplitK = kFastBlockVec;

template <int T>
struct Threads {
  static constexpr int kThreads = T;
};

template <class E>
struct Launch {
  const E* x;
  E* y;
  State* row_state;
  std::int64_t rows, cols;
  cudaStream_t stream;
};

inline unsigned grid_of(std::int64_t blocks) {
  if (blocks > 0x7fffffff) throw InvalidLaunch("fast kernel: more than 2^31 - 1 blocks");
  return static_cast<unsigned>(blocks);
}

/// The schedule a row of one part (chunks = 1) runs: it merges no part states, so of the merge's
/// members none applies and only kLoadTail does. A schedule that loads the tail runs the row
/// kernels of the order as written (one instantiation of them fewer for each merge mutant).
template <class Schedule>
using UnsplitSchedule = std::conditional_t<Schedule::kLoadTail, FastSchedule, Schedule>;

template <int T, int K, int ROWS, class Schedule, class E>
void launch_rows(const Launch<E>& l) {
  const unsigned grid = grid_of((l.rows + ROWS - 1) / ROWS);
  fast_row_kernel<E, T, K, ROWS, Schedule>
      <<<grid, T * ROWS, 0, l.stream>>>(l.x, l.y, l.row_state, l.rows, l.cols);
}

/// A row kernel for the plan p (chunks = 1).
template <class Schedule, class E>
void launch_unsplit(const FastPlan& p, const Launch<E>& l) {
  if (p.threads == kWarpSize) {
    switch (p.vec) {
      case 1:
        return launch_rows<32, 1, kWarpRowsPerBlock, Schedule>(l);
      case 2:
        return launch_rows<32, 2, kWarpRowsPerBlock, Schedule>(l);
      case 4:
        return launch_rows<32, 4, kWarpRowsPerBlock, Schedule>(l);
      default:
        return launch_rows<32, 8, kWarpRowsPerBlock, Schedule>(l);
    }
  }
  switch (p.threads) {
    case 64:
      return launch_rows<64, kFastBlockVec, 1, Schedule>(l);
    case 128:
      return launch_rows<128, kFastBlockVec, 1, Schedule>(l);
    default:
      return launch_rows<256, kFastBlockVec, 1, Schedule>(l);
  }
}

/// Whether the parts of x's rows (cluster blocks, split chunks) can be staged by bulk copies
/// (staged_load.cuh): every row of x starts 16-byte aligned and is a multiple of 16 bytes long.
template <class E>
bool stageable(const E* x, std::int64_t cols) {
  return reinterpret_cast<std::uintptr_t>(x) % 16 == 0 && (cols * sizeof(E)) % 16 == 0;
}

/// Raises `kernel`'s dynamic shared-memory limit on the current device to `bytes` (above the
/// default 48 KiB needs it), once per device and kernel.
inline void allow_dynamic_smem(const void* kernel, std::size_t bytes) {
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, bool> done;
  int device = 0;
  OSVS_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  if (!done.emplace(std::make_pair(device, kernel), true).second) return;
  OSVS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
}

/// Cluster rows: rows a bulk copy can stage keep each block's part in shared memory
/// (fast_cluster_shared_kernel); the rest load into registers (fast_cluster_kernel). A cluster a
/// row either way, the same bits.
template <class Schedule, class E>
void launch_cluster(const FastPlan& p, const Launch<E>& l) {
  constexpr int K = kFastBlockVec;  // the cluster layout's float4s a thread (fast_plan.h)
  if (p.vec != K || (p.threads != 256 && p.threads != kSplitT))
    throw InvalidLaunch("fast kernel: no cluster kernel for the plan's layout");
  const auto blocks = static_cast<unsigned>(p.blocks);
  const unsigned grid = grid_of(l.rows * p.blocks);
  const auto go = [&](auto threads) {
    constexpr int T = decltype(threads)::kThreads;
    if (stageable(l.x, l.cols)) {
      const auto kernel = fast_cluster_shared_kernel<E, T, K, Schedule>;
      constexpr std::size_t kSmem = shared_cluster_bytes<E>(std::int64_t{T} * K * 4);
      allow_dynamic_smem(reinterpret_cast<const void*>(kernel), kSmem);
      launch_in_clusters_smem(kernel, grid, T, blocks, kSmem, l.stream, l.x, l.y, l.row_state,
                              l.cols);
    } else {
      launch_in_clusters(fast_cluster_kernel<E, T, K, Schedule>, grid, T, blocks, l.stream, l.x,
                         l.y, l.row_state, l.cols);
    }
  };
  if (p.threads == 256)
    go(Threads<256>{});
  else
    go(Threads<kSplitT>{});
}

struct Workspace {
  FastMergeState* chunk_states;
  unsigned* arrived;   ///< per row: blocks that published their chunk state
  unsigned* departed;  ///< per row: blocks done reading the row's states
};

inline Workspace carve(void* ws, std::int64_t rows, std::int64_t chunks) {
  auto* states = static_cast<FastMergeState*>(ws);
  auto* arrived = reinterpret_cast<unsigned*>(states + rows * chunks);
  return {states, arrived, arrived + rows};
}

/// What a cooperative launch of the split kernel can count on, per device: asked once (the
/// queries cost microseconds, a 64 x 2^20 softmax some hundreds), then cached.
struct SplitCapacity {
  bool cooperative;       ///< the device supports cooperative launches
  std::int64_t resident;  ///< blocks of the split kernel the whole device holds at once
};

/// The cooperative split kernel, staged (dynamic shared memory of one chunk) or not.
template <class Schedule, class E, bool STAGED>
struct SplitKernel {
  static constexpr std::size_t kSmem = STAGED ? kFastChunkElems * sizeof(E) : 0;
  static auto kernel() { return fast_split_kernel<E, kSplitT, kSplitK, Schedule, STAGED>; }
};

template <class Schedule, class E, bool STAGED>
SplitCapacity split_capacity() {
  using K = SplitKernel<Schedule, E, STAGED>;
  static std::mutex mutex;
  static std::map<int, SplitCapacity> by_device;
  int device = 0;
  OSVS_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = by_device.find(device); it != by_device.end()) return it->second;
  int coop = 0, sms = 0, per_sm = 0;
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  allow_dynamic_smem(reinterpret_cast<const void*>(K::kernel()), K::kSmem);
  OSVS_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, K::kernel(), kSplitT, K::kSmem));
  const SplitCapacity c{coop != 0, std::int64_t{sms} * per_sm};
  by_device.emplace(device, c);
  return c;
}

/// Rows a cooperative round holds (R), or 0 when not even one row's C blocks fit at once.
template <class Schedule, class E, bool STAGED>
std::int64_t cooperative_rows(std::int64_t rows, std::int64_t chunks) {
  const SplitCapacity c = split_capacity<Schedule, E, STAGED>();
  if (!c.cooperative) return 0;
  const std::int64_t r = c.resident / chunks;
  return r < rows ? r : rows;
}

/// The cooperative launch of a split plan (R rows a round); false when not even one row fits.
template <class Schedule, class E, bool STAGED>
bool launch_cooperative(const Launch<E>& l, const Workspace& w, std::int64_t C) {
  using K = SplitKernel<Schedule, E, STAGED>;
  const std::int64_t R = cooperative_rows<Schedule, E, STAGED>(l.rows, C);
  if (R == 0) return false;
  const E* x = l.x;
  E* y = l.y;
  State* rs = l.row_state;
  std::int64_t M = l.rows, n = l.cols, chunks = C;
  FastMergeState* states = w.chunk_states;
  unsigned* arrived = w.arrived;
  unsigned* departed = w.departed;
  void* args[] = {&x, &y, &rs, &M, &n, &chunks, &states, &arrived, &departed};
  OSVS_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(K::kernel()),
                                              dim3(grid_of(R * C)), dim3(kSplitT), args, K::kSmem,
                                              l.stream));
  return true;
}

template <class Schedule, class E>
void launch_split(const FastPlan& p, const Launch<E>& l, void* ws, FastSplitPath path) {
  if (p.vec != kSplitK || p.threads != kSplitT)
    throw InvalidLaunch("fast kernel: no split kernel for the plan's layout");
  const std::int64_t C = p.chunks;
  const Workspace w = carve(ws, l.rows, C);
  const bool staged = stageable(l.x, l.cols);
  if (path == FastSplitPath::Auto && staged && launch_cooperative<Schedule, E, true>(l, w, C))
    return;
  if (path == FastSplitPath::Cooperative) {
    const bool launched = staged ? launch_cooperative<Schedule, E, true>(l, w, C)
                                 : launch_cooperative<Schedule, E, false>(l, w, C);
    if (!launched)
      throw InvalidLaunch("fast kernel: the device cannot hold the " + std::to_string(C) +
                          " blocks of one row at once (cooperative launch impossible)");
    return;
  }
  const unsigned grid = grid_of(l.rows * C);
  fast_chunk_state_kernel<E, kSplitT, kSplitK, Schedule>
      <<<grid, kSplitT, 0, l.stream>>>(l.x, l.cols, C, w.chunk_states);
  OSVS_CUDA_CHECK(cudaGetLastError());
  fast_chunk_output_kernel<E, kSplitT, kSplitK, Schedule>
      <<<grid, kSplitT, 0, l.stream>>>(l.x, l.y, l.row_state, l.cols, C, w.chunk_states);
}

/// Stream-ordered scratch for one launch: freed on the stream after the kernels that use it
/// (release), or right away when the launch throws before enqueuing them.
class StreamScratch {
 public:
  StreamScratch(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    if (bytes == 0) return;
    OSVS_CUDA_CHECK(cudaMallocAsync(&ptr_, bytes, stream));
    OSVS_CUDA_CHECK(cudaMemsetAsync(ptr_, 0, bytes, stream));  // the counters start at zero
  }
  ~StreamScratch() {
    if (ptr_) cudaFreeAsync(ptr_, stream_);  // on an error path: nothing to report it to
  }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  void* get() const { return ptr_; }
  void release() {
    if (ptr_) OSVS_CUDA_CHECK(cudaFreeAsync(ptr_, stream_));
    ptr_ = nullptr;
  }

 private:
  void* ptr_ = nullptr;
  cudaStream_t stream_;
};

template <class Schedule, class E>
void launch_plan(const Launch<E>& l, void* ws, FastSplitPath path) {
  const FastPlan p = fast_plan(l.cols);
  if (p.blocks > 1) {
    launch_cluster<Schedule>(p, l);
  } else if (p.chunks == 1) {
    launch_unsplit<UnsplitSchedule<Schedule>>(p, l);
  } else {
    launch_split<Schedule>(p, l, ws, path);
  }
}

/// Enqueues the fast kernel under Schedule on `stream_ptr` (launch_fast_softmax's contract,
/// fast_launch.h): `workspace` of fast_workspace_bytes(rows, cols) zeroed bytes, or nullptr to
/// allocate and zero it on the stream for this launch.
template <class Schedule, class E>
void launch_fast(const E* x, E* y, State* row_state, std::int64_t rows, std::int64_t cols,
                 void* workspace, void* stream_ptr, FastSplitPath path) {
  if (rows == 0) return;
  const auto stream = static_cast<cudaStream_t>(stream_ptr);
  const Launch<E> l{x, y, row_state, rows, cols, stream};
  const std::size_t bytes = fast_workspace_bytes(rows, cols);
  StreamScratch own(bytes > 0 && workspace == nullptr ? bytes : 0, stream);
  void* ws = workspace ? workspace : own.get();
  launch_plan<Schedule>(l, ws, path);
  OSVS_CUDA_CHECK(cudaGetLastError());
  own.release();
}

}  // namespace osvs::cuda::fast
