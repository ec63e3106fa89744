// The fast kernel's plan: how a row of n elements is laid out over threads, warps, blocks and
// chunks. A pure function of n, the same on host and device and independent of the GPU it runs
// on (SM count, occupancy), so that the CPU model replays the device's order for every n.
//
//   n <= 1024              a warp per row     threads = 32, vec = 1, 2, 4 or 8 float4s a lane
//   1024 < n <= 8192       a block per row    threads = 64 ... 256, vec = 8 float4s a thread
//   8192 < n <= 131072     a cluster per row  2 ... 8 blocks of a thread-block cluster, vec = 8:
//                                             256 threads (8192 elements) a block up to
//                                             n = 65536, then 512 (16384 elements); the blocks
//                                             exchange their states once, through distributed
//                                             shared memory
//   n > 131072             a split row        threads = 512, vec = 8; chunks of 16384 elements,
//                                             one block each, chunk states merged across blocks
//
// A cluster row is read from HBM once like a block row, in small blocks that an SM holds several
// of, so that one block's loads overlap another's arithmetic and stores: a row of 32768 elements
// in one block of 1024 threads left an SM one block (59.0 % of copy on 1024 x 32768,
// reports/gpu/2026-11-30-fast-accurate); a cluster of four blocks of 256 threads reached 67.4 and
// 69.3 % in one run where two blocks of 512 reached 65.2 % (reports/gpu/2026-12-01-fast-cluster).
// Each block takes its terms against its own maximum and scales them once the row state is
// merged (fast_schedule.h, steps 5-6): one exp an element. The blocks push their states into
// each other's shared memory (kernels/src/cuda/fast/cluster_inbox.cuh) rather than meet at
// cluster barriers: 87.8 % of a copy on 1024 x 32768 against 75.1 %
// (reports/gpu/2026-12-01-staged).
//
// In every case the row (or the part) is held in registers, or in shared memory where it is
// staged by bulk copies (kernels/src/cuda/fast/staged_load.cuh), while its state is found. The row
// is read from HBM once and written once, except on a split row's fallback of two launches,
// which reads x again (fast_kernels.cuh, fast_launch.h). Thread t of a block holds the float4s
// k = 0 .. vec-1 at element offsets (k * threads + t) * 4 .. + 3 of its part (the row, the
// cluster block's span or the chunk): each k is one coalesced 128-bit access of the whole warp.
// Offsets at or past the row's end (the tail) hold -inf, a masked element, which contributes
// exactly nothing.
#pragma once

#include <cstdint>

#include "osvs/kernels/hd.h"

namespace osvs {

/// Elements of one chunk of a split row.
inline constexpr std::int64_t kFastChunkElems = 16384;
/// Rows up to this length get a block each (of at most 256 threads).
inline constexpr std::int64_t kFastBlockRowMax = 8192;
/// Blocks of a cluster row at most (the portable cluster size); longer rows are split.
inline constexpr int kFastClusterMax = 8;
/// Rows up to this length get a cluster of blocks of 256 threads (8192 elements a block).
inline constexpr std::int64_t kFastSmallClusterRowMax = kFastClusterMax * kFastBlockRowMax;
/// Rows up to this length get a cluster (of blocks of 512 threads past the small clusters).
inline constexpr std::int64_t kFastClusterRowMax = kFastClusterMax * kFastChunkElems;
/// Rows up to this length get a warp each.
inline constexpr std::int64_t kFastWarpRowMax = 1024;
/// Threads of a split row's block.
inline constexpr int kFastSplitThreads = 512;
/// float4s a thread holds in the block and split layouts.
inline constexpr int kFastBlockVec = 8;

struct FastPlan {
  int threads = 32;         ///< threads per chunk (32: a warp per row)
  int vec = 1;              ///< float4s per thread (a power of two)
  std::int64_t chunks = 1;  ///< chunks per row (1: not split)
  int blocks = 1;           ///< blocks of the cluster that holds a row (1: no cluster)

  /// Elements one block covers (threads * vec * 4): a chunk of a split row, a cluster block's
  /// span; the last of a row may be partial.
  OSVS_HD std::int64_t chunk_span() const { return std::int64_t{threads} * vec * 4; }
  /// Blocks that hold parts of a row, each with a row state of its own (equal without a mutant).
  OSVS_HD std::int64_t parts() const { return chunks * blocks; }
  /// Values a thread holds.
  OSVS_HD int per_thread() const { return vec * 4; }
};

namespace detail {
OSVS_HD std::int64_t pow2_at_least(std::int64_t v) {
  std::int64_t p = 1;
  while (p < v) p *= 2;
  return p;
}
}  // namespace detail

/// The plan for a row of n elements (n >= 0; n = 0 gets the smallest warp plan).
OSVS_HD FastPlan fast_plan(std::int64_t n) {
  FastPlan p;
  if (n <= kFastWarpRowMax) {
    p.threads = 32;
    p.vec = static_cast<int>(detail::pow2_at_least((n + 127) / 128));  // 1, 2, 4, 8
    return p;
  }
  p.vec = kFastBlockVec;
  if (n <= kFastBlockRowMax) {
    const std::int64_t t = detail::pow2_at_least((n + 4 * kFastBlockVec - 1) / (4 * kFastBlockVec));
    p.threads = static_cast<int>(t < 64 ? 64 : t);  // 64 ... 256
    return p;
  }
  if (n <= kFastClusterRowMax) {
    p.threads = n <= kFastSmallClusterRowMax ? 256 : kFastSplitThreads;
    p.blocks = static_cast<int>((n + p.chunk_span() - 1) / p.chunk_span());  // 2 ... 8
    return p;
  }
  p.threads = kFastSplitThreads;
  p.chunks = (n + kFastChunkElems - 1) / kFastChunkElems;
  return p;
}

}  // namespace osvs
