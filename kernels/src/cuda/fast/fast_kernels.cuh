// The fast kernel family on the device: the order of fast_schedule.h, the layout of fast_plan.h.
//
//   fast_row_kernel      chunks = 1: a warp (T = 32, ROWS rows a block) or a block (T > 32) per
//                        row; the row in registers. HBM: one read and one write of each element.
//   fast_cluster_kernel  blocks > 1: a thread-block cluster per row, the blocks pushing their
//                        states into each other's shared memory (cluster_inbox.cuh;
//                        fast_schedule.h, step 5). HBM: one read and one write of each element.
//                        Rows a bulk copy can stage: fast_cluster_shared_kernel, the part kept in
//                        shared memory.
//   fast_split_kernel    chunks > 1, cooperative and persistent: the grid is G = R * C blocks,
//                        all co-resident (cudaLaunchCooperativeKernel refuses the launch
//                        otherwise, never assumed); block b always handles chunk b % C of the
//                        rows b / C, b / C + R, ... Each block holds its chunk in registers,
//                        writes its chunk state, announces it on the row's counter and waits
//                        until the row's C states are written; then every block of the row
//                        merges them in the same fixed order (fast_schedule.h, step 5) and writes
//                        its chunk's terms, kept in registers, scaled (step 6). The C blocks of a
//                        row are one fixed group of co-resident blocks that only ever waits on
//                        itself, so it cannot deadlock. The last block of a row to leave resets the
//                        row's two counters, so the workspace is zero again for the next launch (no
//                        memset launch). HBM: one read, one write, plus 8 bytes a chunk.
//   fast_chunk_state_kernel + fast_chunk_output_kernel
//                        chunks > 1 where a row's C blocks cannot all be co-resident (or the
//                        device has no cooperative launch): the same arithmetic in two launches,
//                        the second reading x again (from L2 where it is still resident, else
//                        HBM): one write and up to two reads.
//
// The counters carry no arithmetic: they only tell a block that its row's states are written.
#pragma once

#include <cooperative_groups.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "cluster_inbox.cuh"
#include "fast_elements.cuh"
#include "osvs/kernels/cuda/block_reduce.cuh"
#include "osvs/kernels/fast_schedule.h"
#include "staged_load.cuh"

namespace osvs {
// Shuffles of step 5's merge states, found by warp_reduce through the state's namespace (step
// 4's binary64 sums: block_reduce.cuh).
__device__ __forceinline__ FastMergeState shfl_down(FastMergeState v, int offset) {
  return FastMergeState{State{__shfl_down_sync(0xffffffffu, v.s.m, offset),
                              __shfl_down_sync(0xffffffffu, v.s.d, offset)},
                        __shfl_down_sync(0xffffffffu, v.lo, offset), 0.0f};
}
__device__ __forceinline__ FastMergeState shfl_from_lane0(FastMergeState v) {
  return FastMergeState{
      State{__shfl_sync(0xffffffffu, v.s.m, 0), __shfl_sync(0xffffffffu, v.s.d, 0)},
      __shfl_sync(0xffffffffu, v.lo, 0), 0.0f};
}
}  // namespace osvs

namespace osvs::cuda::fast {

using FastAlg = OnlineAlg<FastCombine>;

/// Thread t's values of the chunk at `base` of a row of n elements (fast_plan.h's layout): a
/// vector load (128-bit for float) for each whole group of 4 of an aligned row, element loads for
/// the tail (or for a row not aligned), -inf past the row's end, or past the last whole group
/// where Schedule does not load the tail.
template <int T, int K, class Schedule, class E>
__device__ __forceinline__ void load_chunk(const E* __restrict__ row, std::int64_t n,
                                           std::int64_t base, int t, bool vec_ok,
                                           float (&v)[4 * K]) {
  const std::int64_t end = fast_loaded_end<Schedule>(n);
#pragma unroll
  for (int k = 0; k < K; ++k)
    load_group(row, base + (std::int64_t{k} * T + t) * 4, end, vec_ok, v + 4 * k);
}

/// Writes the outputs (step 6) of thread t's values v of a part of maximum m_part and scale
/// `scale` (fast_part_scale); TERMS: v already holds the terms fast_term(x, m_part), else the
/// values x. Vector stores where the row is aligned and the group of 4 whole, element stores for
/// the tail.
template <int T, int K, bool TERMS, class E>
__device__ __forceinline__ void store_chunk(E* __restrict__ row, std::int64_t n, std::int64_t base,
                                            int t, bool vec_ok, const float (&v)[4 * K],
                                            float m_part, float scale) {
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const std::int64_t j = base + (std::int64_t{k} * T + t) * 4;
    float out[4];
    if constexpr (TERMS) {
#pragma unroll
      for (int c = 0; c < 4; ++c) out[c] = fast_output_of_term(v[4 * k + c], scale);
    } else {
      fast_outputs4(v + 4 * k, m_part, scale, out);
    }
    store_group(row, j, n, vec_ok, out);
  }
}

/// Lane 0 of the warp receives warp_reduce's fold of the lanes' values where only lanes [0,
/// lanes) hold values and the others alg.initial(): the rounds whose right-hand lanes hold only
/// the initial value (offsets >= lanes rounded up to a power of two) are skipped. Each fold's
/// initial value is an exact right identity (fast_schedule.h, "Skipped rounds"), so lane 0 gets
/// warp_reduce's bits. `lanes` is uniform over the warp.
template <class Alg>
__device__ __forceinline__ typename Alg::value_type fold_lanes(typename Alg::value_type v,
                                                               const Alg& alg, int lanes) {
  int first = 1;
  while (first < lanes) first <<= 1;
#pragma unroll
  for (int offset = first / 2; offset > 0; offset >>= 1) v = alg.combine(v, shfl_down(v, offset));
  return v;
}

/// The second level of chunk_fold (below): every warp folds the warps' values (lane 0's of each
/// warp), of which only warps [0, used_warps) hold more than the initial value.
template <int T, class Alg>
__device__ __forceinline__ typename Alg::value_type fold_warp_values(typename Alg::value_type v,
                                                                     const Alg& alg,
                                                                     int used_warps) {
  using V = typename Alg::value_type;
  constexpr int kWarps = T / kWarpSize;
  __shared__ V warp_value[kWarps];
  const int lane = threadIdx.x & (kWarpSize - 1);
  if (lane == 0) warp_value[threadIdx.x / kWarpSize] = v;
  __syncthreads();
  const V w = fold_lanes(lane < used_warps ? warp_value[lane] : alg.initial(), alg, used_warps);
  const V out = shfl_from_lane0(w);
  __syncthreads();  // warp_value is reused by the next fold of the block
  return out;
}

/// The trees of steps 2, 4 and 5 (fast_schedule.h): every thread of the T threads receives the
/// fold of their values under `alg`. T = 32: the warp alone (no shared memory, no block barrier:
/// the warps of a block are independent rows). T > 32: every warp folds the T / 32 warps' values
/// itself (the tree warp 0 would fold, the same bits in every warp), so that no barrier is spent
/// on passing warp 0's result around.
template <int T, class Alg>
__device__ __forceinline__ typename Alg::value_type chunk_fold(typename Alg::value_type v,
                                                               const Alg& alg) {
  v = warp_reduce(v, alg);
  if constexpr (T == kWarpSize) {
    return shfl_from_lane0(v);
  } else {
    return fold_warp_values<T>(v, alg, T / kWarpSize);
  }
}

/// chunk_fold where only threads [0, used) hold values and the others alg.initial() (a split
/// row's chunk states, fewer than its block's threads): the skipped rounds of fold_lanes in each
/// warp and between the warps, the same bits. `used` is uniform over the block.
template <int T, class Alg>
__device__ __forceinline__ typename Alg::value_type chunk_fold_used(typename Alg::value_type v,
                                                                    const Alg& alg, int used) {
  const int first = static_cast<int>(threadIdx.x / kWarpSize) * kWarpSize;
  const int in_warp = used - first < 0 ? 0 : (used - first > kWarpSize ? kWarpSize : used - first);
  v = fold_lanes(v, alg, in_warp);
  if constexpr (T == kWarpSize) {
    return shfl_from_lane0(v);
  } else {
    return fold_warp_values<T>(v, alg, (used + kWarpSize - 1) / kWarpSize);
  }
}

/// A chunk state written by another block: read from L2 (bypassing this SM's L1).
__device__ __forceinline__ FastMergeState load_state_cg(const FastMergeState* p) {
  const float4 v = __ldcg(reinterpret_cast<const float4*>(p));
  return FastMergeState{State{v.x, v.y}, v.z, 0.0f};
}

/// Step 5: the row state from its C chunk states, for the block of chunk c (step 6's, finished),
/// merging the fast_merge_count<Schedule> first of them.
template <int T, class Schedule>
__device__ __forceinline__ State merge_chunks(const FastMergeState* states, std::int64_t C,
                                              std::int64_t c) {
  const std::int64_t count = fast_merge_count<Schedule>(C, c);
  const std::int64_t q = fast_merge_per_thread(C, T);
  const std::int64_t lo = std::int64_t{threadIdx.x} * q;
  const std::int64_t len = lo >= count ? 0 : (count - lo < q ? count - lo : q);
  // q = 1 (C <= T, every split row up to T chunks): one state a thread, no tree of its own
  const FastMergeState v =
      q == 1 ? (len == 1 ? load_state_cg(states + lo) : FastMergeAlg{}.initial())
             : pairwise_stream(
                   len, FastMergeAlg{}.initial(),
                   [&](std::int64_t i) { return load_state_cg(states + lo + i); },
                   [](FastMergeState a, FastMergeState b) { return fast_merge(a, b); });
  // threads at or past ceil(count / q) hold the initial value
  const auto used = static_cast<int>((count + q - 1) / q);
  return fast_row_state(chunk_fold_used<T>(v, FastMergeAlg{}, used));
}

/// Steps 1-4 for thread t's values of a chunk: its maximum, then its sum. KEEP_TERMS: v is
/// overwritten by the terms fast_term(v[i], M) (step 6 of a row that is one chunk uses them).
template <int T, int K, bool KEEP_TERMS>
__device__ __forceinline__ FastMergeState chunk_state(float (&v)[4 * K]) {
  const float M = chunk_fold<T>(fast_thread_max<4 * K>(v), FastMaxAlg{});
  double d = 0.0;
  if constexpr (KEEP_TERMS) {
    fast_terms_in_place<4 * K>(v, M);
    // M not finite: the chunk state is decided by M alone (fast_chunk_state), the sum unused
    d = fast_terms_sum<4 * K>(v);
  } else {
    d = fast_thread_sum<4 * K>(v, M);
  }
  return fast_merge_state(M, chunk_fold<T>(d, FastSumAlg{}));
}

/// chunks = 1: ROWS rows per block (T = 32), else one.
template <class E, int T, int K, int ROWS, class Schedule>
__global__ void __launch_bounds__(T* ROWS)
    fast_row_kernel(const E* __restrict__ x, E* __restrict__ y, State* __restrict__ row_state,
                    std::int64_t M, std::int64_t n) {
  static_assert(T == kWarpSize || ROWS == 1, "several rows per block only for a warp per row");
  const std::int64_t row = std::int64_t{blockIdx.x} * ROWS + threadIdx.x / T;
  if (row >= M) return;  // uniform over the row's threads (a warp, or the whole block)
  const int t = static_cast<int>(threadIdx.x % T);
  const E* row_x = x + row * n;
  E* row_y = y + row * n;
  float v[4 * K];
  load_chunk<T, K, Schedule>(row_x, n, 0, t, vector_aligned(row_x), v);
  const State s = fast_row_state(chunk_state<T, K, true>(v));  // v now holds the terms
  if (t == 0) row_state[row] = s;
  store_chunk<T, K, true>(row_y, n, 0, t, vector_aligned(row_y), v, s.m, fast_part_scale(s.m, s));
}

/// What a cluster row's block writes with (step 6): the row state and its part's scale.
struct ClusterRowResult {
  State row;
  float scale;
};

/// Step 5's exchange of a cluster row by pushes (cluster_inbox.cuh), in this block (rank b of C)
/// with its part's state `mine`: after cluster_wait (every inbox open), warp 0 pushes `mine` to
/// every block, every thread waits for the C states of its own inbox, warp 0 merges them over
/// its tree (fast_merge_threads: lane r holds block r's state), thread 0 finds the row state and
/// the part's scale once for the block (fast_part_scale), block 0 writes the row state.
template <class Schedule>
__device__ __forceinline__ ClusterRowResult cluster_push_exchange(int C, int b, std::int64_t row,
                                                                  const FastMergeState& mine,
                                                                  State* __restrict__ row_state,
                                                                  ClusterInbox& inbox,
                                                                  ClusterRowResult& shared) {
  const int t = static_cast<int>(threadIdx.x);
  cluster_wait();  // every block's inbox is open
  if (t < kWarpSize) inbox.push(C, b, mine);
  inbox.landed.wait<true>(0);
  if (t < kWarpSize) {
    const int count = static_cast<int>(fast_merge_count<Schedule>(C, b));
    const FastMergeState w =
        fold_lanes(t < count ? inbox.slot[t] : FastMergeAlg{}.initial(), FastMergeAlg{}, count);
    if (t == 0) {
      const State s = fast_row_state(w);
      shared = ClusterRowResult{s, fast_part_scale(mine.s.m, s)};
      if (b == 0) row_state[row] = s;
    }
  }
  __syncthreads();  // shared is written
  return shared;
}

/// Steps 1-4 for thread t's values of a part staged in shared memory (`staged`, fast_plan.h's
/// layout, `used` values, -inf past them), four at a time: the same folds, terms and pairwise
/// tree as chunk_state<T, K, true> over registers, so the same bits. The terms go to `terms` (the
/// same layout, float; for float parts the staged buffer itself: each thread overwrites only the
/// slots it has read), where step 6 reads them. Needs few registers: the block's part is not held
/// in them.
template <int T, int K, class E>
__device__ __forceinline__ FastMergeState shared_part_state(const E* staged, float* terms,
                                                            std::int64_t used) {
  const int t = static_cast<int>(threadIdx.x);
  // the thread's maximum: the maxima of its float4s folded (exact, so fast_thread_max's bits)
  float m = FastMaxAlg{}.initial();
#pragma unroll
  for (int k = 0; k < K; ++k) {
    float g[4];
    read_staged_group<T>(staged, used, t, k, g);
    m = FastMaxAlg{}.combine(m, fast_thread_max<4>(g));
  }
  const float M = chunk_fold<T>(m, FastMaxAlg{});
  // the terms of float4 k and their pairwise sum (a subtree of 4 of fast_terms_sum<4 K>)
  const auto group = [&](int k) {
    float g[4], e[4];
    read_staged_group<T>(staged, used, t, k, g);
    fast_terms4(g, M, e);
    *reinterpret_cast<float4*>(terms + (std::int64_t{k} * T + t) * 4) =
        make_float4(e[0], e[1], e[2], e[3]);
    return fast_terms_sum<4>(e);
  };
  const double d =
      pairwise_tree<K>(0, group, [](double a, double b) { return detail::add_rn(a, b); });
  return fast_merge_state(M, chunk_fold<T>(d, FastSumAlg{}));
}

/// Step 6 from a part's terms kept in shared memory (shared_part_state's layout): thread t writes
/// its float4 slots of the part at `base` of the row, scaled (store_chunk's stores).
template <int T, int K, class E>
__device__ __forceinline__ void store_shared_terms(E* __restrict__ row_y, std::int64_t n,
                                                   std::int64_t base, const float* terms,
                                                   float scale) {
  const int t = static_cast<int>(threadIdx.x);
  const bool vec_ok = vector_aligned(row_y);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const std::int64_t j = (std::int64_t{k} * T + t) * 4;
    const float4 e = *reinterpret_cast<const float4*>(terms + j);
    const float out[4] = {fast_output_of_term(e.x, scale), fast_output_of_term(e.y, scale),
                          fast_output_of_term(e.z, scale), fast_output_of_term(e.w, scale)};
    store_group(row_y, base + j, n, vec_ok, out);
  }
}

/// A cluster row (blocks = C > 1): the C blocks of a thread-block cluster (cluster dims (C, 1, 1),
/// grid M * C: a row's blocks are consecutive) each load their part of the row into registers,
/// find its state and terms (steps 1-4), exchange the states by pushes (cluster_push_exchange)
/// and write their terms scaled. Rows a bulk copy cannot stage (fast_cluster_shared_kernel takes
/// the rest). HBM: one read and one write of each element.
template <class E, int T, int K, class Schedule>
__global__ void __launch_bounds__(T, 1024 / T)  // 64 registers a thread: 2048 / T blocks an SM
    fast_cluster_kernel(const E* __restrict__ x, E* __restrict__ y, State* __restrict__ row_state,
                        std::int64_t n) {
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const int C = static_cast<int>(cluster.num_blocks());
  const int b = static_cast<int>(cluster.block_rank());
  const std::int64_t row = blockIdx.x / C;
  const int t = static_cast<int>(threadIdx.x);
  __shared__ ClusterInbox inbox;
  __shared__ ClusterRowResult result;
  if (t == 0) inbox.open(C);
  cluster_arrive_relaxed();  // completed before the first push (cluster_push_exchange)
  const E* row_x = x + row * n;
  const std::int64_t base = std::int64_t{b} * T * K * 4;
  float v[4 * K];
  load_chunk<T, K, Schedule>(row_x, n, base, t, vector_aligned(row_x), v);
  const FastMergeState mine = chunk_state<T, K, true>(v);  // v now holds the terms
  const ClusterRowResult r =
      cluster_push_exchange<Schedule>(C, b, row, mine, row_state, inbox, result);
  E* row_y = y + row * n;
  store_chunk<T, K, true>(row_y, n, base, t, vector_aligned(row_y), v, mine.s.m, r.scale);
}

/// Cluster rows held in shared memory (rows a bulk copy can stage, staged_load.cuh): a cluster a
/// row, each block staging its part (T * K * 4 elements of E) by one bulk copy and keeping it,
/// then its terms (float: in place; bf16: beside it), in shared memory rather than registers
/// (shared_part_state), so that an SM holds more blocks; the states are pushed
/// (cluster_push_exchange). Dynamic shared memory: shared_cluster_bytes<E>(T * K * 4). The same
/// bits as fast_cluster_kernel.
template <class E, int T, int K, class Schedule>
__global__ void __launch_bounds__(T, 1536 / T)
    fast_cluster_shared_kernel(const E* __restrict__ x, E* __restrict__ y,
                               State* __restrict__ row_state, std::int64_t n) {
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const int C = static_cast<int>(cluster.num_blocks());
  const int b = static_cast<int>(cluster.block_rank());
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t row = blockIdx.x / C;
  constexpr std::int64_t kSpan = std::int64_t{T} * K * 4;
  const std::int64_t base = b * kSpan;
  const std::int64_t len = n - base < kSpan ? n - base : kSpan;  // >= 1 (fast_plan.h)
  const std::int64_t end = fast_loaded_end<Schedule>(n);
  const std::int64_t used = end - base < len ? end - base : len;
  extern __shared__ __align__(128) unsigned char staging[];
  float* const terms = reinterpret_cast<float*>(staging);
  // float: the part in place of its terms; bf16: after them
  E* const part = std::is_same_v<E, float> ? reinterpret_cast<E*>(staging)
                                           : reinterpret_cast<E*>(terms + kSpan);
  __shared__ TxBarrier landed;
  __shared__ ClusterInbox inbox;
  __shared__ ClusterRowResult result;
  if (t == 0) {
    landed.init();
    landed.stage(part, x + row * n + base, static_cast<std::uint32_t>(len * sizeof(E)));
    inbox.open(C);
  }
  cluster_arrive_relaxed();  // completed before the first push (cluster_push_exchange)
  __syncthreads();           // the barrier is initialized before any thread waits on it
  landed.wait(0);
  const FastMergeState mine = shared_part_state<T, K>(part, terms, used);
  const float scale =
      cluster_push_exchange<Schedule>(C, b, row, mine, row_state, inbox, result).scale;
  store_shared_terms<T, K>(y + row * n, n, base, terms, scale);
}

/// Dynamic shared memory of fast_cluster_shared_kernel for parts of `span` elements of E: the
/// float terms, and for narrower E the staged part beside them.
template <class E>
constexpr std::size_t shared_cluster_bytes(std::int64_t span) {
  return static_cast<std::size_t>(span) *
         (sizeof(float) + (std::is_same_v<E, float> ? 0 : sizeof(E)));
}

/// Announces this block's chunk state (after it is visible device-wide) and waits for the row's
/// other C - 1. Thread 0 holds s; every thread returns when the row's C states are readable.
__device__ __forceinline__ void publish_and_wait(FastMergeState* slot, FastMergeState s,
                                                 unsigned* arrived, std::int64_t C) {
  if (threadIdx.x == 0) {
    *slot = s;
    __threadfence();  // the state before the count
    atomicAdd(arrived, 1u);
    const volatile unsigned* count = arrived;
    while (static_cast<std::int64_t>(*count) < C) __nanosleep(64);
    __threadfence();  // the count before the states
  }
  __syncthreads();
}

/// Called by every block of a row once it no longer reads the row's counter or states: the last
/// one to leave zeroes both counters (all C have passed their wait, none reads them again).
__device__ __forceinline__ void leave(unsigned* arrived, unsigned* departed, std::int64_t C) {
  if (threadIdx.x == 0 && static_cast<std::int64_t>(atomicAdd(departed, 1u)) == C - 1) {
    *arrived = 0;
    *departed = 0;
  }
}

/// chunks > 1, cooperative (see the file's head). gridDim.x = R * C; arrived[] and departed[]
/// zero for the M rows on entry, and again on exit. STAGED (rows 16-byte aligned, n * sizeof(E)
/// a multiple of 16; dynamic shared memory of one chunk): the copy engine brings each block's next
/// chunk into shared memory while the block waits for its row's states, merges and writes
/// (staged_load.cuh); the same bits as loading into registers.
template <class E, int T, int K, class Schedule, bool STAGED>
__global__ void __launch_bounds__(T, 2)  // two blocks an SM: 64 registers a thread
    fast_split_kernel(const E* __restrict__ x, E* __restrict__ y, State* __restrict__ row_state,
                      std::int64_t M, std::int64_t n, std::int64_t C, FastMergeState* chunk_states,
                      unsigned* arrived, unsigned* departed) {
  const int t = static_cast<int>(threadIdx.x);
  constexpr std::int64_t kSpan = std::int64_t{T} * K * 4;
  const std::int64_t c = blockIdx.x % C;  // the block's chunk in each of its rows
  const std::int64_t base = c * kSpan;
  const std::int64_t len = n - base < kSpan ? n - base : kSpan;  // >= 1 (fast_plan.h)
  const std::int64_t end = fast_loaded_end<Schedule>(n);
  const std::int64_t used = end - base < len ? end - base : len;
  const auto bytes = static_cast<std::uint32_t>(len * sizeof(E));
  extern __shared__ __align__(128) unsigned char staging[];
  E* const staged = reinterpret_cast<E*>(staging);
  __shared__ TxBarrier landed;
  if constexpr (STAGED) {
    if (t == 0) landed.init();
    __syncthreads();
    if (t == 0 && blockIdx.x < M * C) landed.stage(staged, x + (blockIdx.x / C) * n + base, bytes);
  }
  std::uint32_t parity = 0;
  for (std::int64_t item = blockIdx.x; item < M * C; item += gridDim.x) {
    const std::int64_t row = item / C;
    float v[4 * K];
    if constexpr (STAGED) {
      landed.wait(parity);
      parity ^= 1;
      read_staged<T, K>(staged, used, t, v);
      __syncthreads();  // the chunk is read: the next row's may land in its place
      const std::int64_t next = item + gridDim.x;
      if (t == 0 && next < M * C) landed.stage(staged, x + (next / C) * n + base, bytes);
    } else {
      const E* row_x = x + row * n;
      load_chunk<T, K, Schedule>(row_x, n, base, t, vector_aligned(row_x), v);
    }
    const FastMergeState mine = chunk_state<T, K, true>(v);  // v now holds the terms
    publish_and_wait(chunk_states + row * C + c, mine, arrived + row, C);
    const State s = merge_chunks<T, Schedule>(chunk_states + row * C, C, c);  // ends on a barrier
    leave(arrived + row, departed + row, C);
    if (c == 0 && t == 0) row_state[row] = s;
    E* row_y = y + row * n;
    store_chunk<T, K, true>(row_y, n, base, t, vector_aligned(row_y), v, mine.s.m,
                            fast_part_scale(mine.s.m, s));
  }
}

/// Fallback, launch 1 of 2: each block's chunk state. Grid: M * C blocks.
template <class E, int T, int K, class Schedule>
__global__ void __launch_bounds__(T)
    fast_chunk_state_kernel(const E* __restrict__ x, std::int64_t n, std::int64_t C,
                            FastMergeState* __restrict__ chunk_states) {
  const std::int64_t item = blockIdx.x;
  const std::int64_t row = item / C, c = item % C;
  const E* row_x = x + row * n;
  float v[4 * K];
  load_chunk<T, K, Schedule>(row_x, n, c * std::int64_t{T} * K * 4, static_cast<int>(threadIdx.x),
                             vector_aligned(row_x), v);
  const FastMergeState s = chunk_state<T, K, false>(v);
  if (threadIdx.x == 0) chunk_states[item] = s;
}

/// Fallback, launch 2 of 2: reads its chunk again, merges the row's states, writes its terms
/// against its chunk's maximum (its own state's m), scaled: the cooperative path's bits.
template <class E, int T, int K, class Schedule>
__global__ void __launch_bounds__(T, 1024 / T)  // 64 registers a thread: 2048 / T blocks an SM
    fast_chunk_output_kernel(const E* __restrict__ x, E* __restrict__ y,
                             State* __restrict__ row_state, std::int64_t n, std::int64_t C,
                             const FastMergeState* __restrict__ chunk_states) {
  const std::int64_t item = blockIdx.x;
  const std::int64_t row = item / C, c = item % C;
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t base = c * std::int64_t{T} * K * 4;
  const E* row_x = x + row * n;
  E* row_y = y + row * n;
  float v[4 * K];
  load_chunk<T, K, Schedule>(row_x, n, base, t, vector_aligned(row_x), v);
  const State s = merge_chunks<T, Schedule>(chunk_states + row * C, C, c);
  const float m_part = load_state_cg(chunk_states + item).s.m;
  if (c == 0 && t == 0) row_state[row] = s;
  store_chunk<T, K, false>(row_y, n, base, t, vector_aligned(row_y), v, m_part,
                           fast_part_scale(m_part, s));
}

}  // namespace osvs::cuda::fast
