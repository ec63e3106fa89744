// The reduction order of the kernels, written once over an abstract algebra.
//
// A kernel reduces a row with one block: thread t folds elements t, t+B, t+2B, ... into its state
// (the stride loop), each warp folds its 32 lanes with the __shfl_down_sync tree, lane 0 of each
// warp stores to shared memory, and warp 0 folds those NUM_WARPS values with the same tree (lanes
// beyond NUM_WARPS start from the initial state). The device code (src/cuda/block_reduce.cuh) and
// the CPU model below follow this order step for step, both templates over a schedule policy
// (block_schedule_policy.h: BlockSchedule is the order as written) whose members they read alike;
// the algebra decides what a step computes:
//
//   Alg::value_type              what is reduced (State for online softmax, float for 3-pass)
//   Alg::initial()               a thread's starting value
//   Alg::lift(x)                 one element as a value
//   Alg::combine(a, b)           a (+) b, with a the receiving (lower) lane
//
// The same template drives the float CPU model (kernels) and the error-accounting algebra of the
// bounds (oracle), so the bound always describes the order the kernel really uses.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "osvs/kernels/block_schedule_policy.h"
#include "osvs/kernels/index_loop.h"

namespace osvs {

inline constexpr int kWarpSize = 32;
inline constexpr int kSupportedBlocks[] = {32, 64, 128, 256, 512, 1024};

inline constexpr bool is_supported_block(int b) {
  for (int s : kSupportedBlocks)
    if (s == b) return true;
  return false;
}

/// One warp's shuffle tree under Schedule: offsets kFirstShuffleOffset, then halved down to 1
/// (16, 8, 4, 2, 1 as written). Shuffling down, a lane whose partner lane + offset is >= 32
/// receives its own value (what __shfl_down_sync returns) and combines with it; shuffling up, a
/// lane whose partner lane - offset is < 0 likewise. Returns lane 0's value.
///
/// Only lane 0's result is returned, so a downward tree computes only the lanes it depends on:
/// after the step of offset 1 lane 0 depends on lanes [0, 2) of the step before, and by induction
/// the step of offset o is needed on lanes [0, o) only, which read lanes [0, 2o) of its input.
/// Since o <= 16, lane + o < 32 on those lanes: none of them is a lane that combines with itself,
/// and each computes exactly what the full step computes on it (31 combines instead of 160 for
/// offsets 16 ... 1; the same value of lane 0, bit for bit).
template <class Schedule = BlockSchedule, class Alg>
typename Alg::value_type model_warp_reduce(std::array<typename Alg::value_type, kWarpSize> lanes,
                                           const Alg& alg) {
  constexpr int kFirst = Schedule::kFirstShuffleOffset;
  if constexpr (Schedule::kShuffleDown) {
    for (int offset = kFirst; offset > 0; offset >>= 1)
      for (int lane = 0; lane < offset; ++lane)  // in place: lane reads lane + offset > lane
        lanes[lane] = alg.combine(lanes[lane], lanes[lane + offset]);
    return lanes[0];
  } else {
    for (int offset = kFirst; offset > 0; offset >>= 1) {  // every lane, as the device
      auto next = lanes;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        const int src = lane - offset >= 0 ? lane - offset : lane;
        next[lane] = alg.combine(lanes[lane], lanes[src]);
      }
      lanes = next;
    }
    return lanes[0];
  }
}

/// Result of a block reduction: the row's value and each warp's own value (lane 0 after the
/// warp's tree), by which pass 2 divides under a schedule that does not divide by the row's.
template <class V>
struct BlockReduction {
  V row;
  std::array<V, kWarpSize> warp;
  int num_warps;
};

/// The whole block's reduction of one row of n elements with block size `block`, under Schedule
/// (its shuffle trees and the end of its stride loops). The threads' stride loops are
/// independent: `loops` may run them concurrently (same result).
template <class Schedule = BlockSchedule, class Alg>
BlockReduction<typename Alg::value_type> model_block_reduce_detail(
    const float* row, std::int64_t n, int block, const Alg& alg, const IndexLoop* loops = nullptr) {
  using V = typename Alg::value_type;
  const int num_warps = (block + kWarpSize - 1) / kWarpSize;
  const std::int64_t end = !Schedule::kLoopToRowEnd && n > 0 ? n - 1 : n;
  BlockReduction<V> r{};
  r.num_warps = num_warps;
  std::vector<V> thread_values(static_cast<std::size_t>(num_warps) * kWarpSize);
  run_indices(loops, static_cast<std::int64_t>(thread_values.size()), [&](std::int64_t tid) {
    V v = alg.initial();
    for (std::int64_t col = tid; col < end; col += block) v = alg.combine(v, alg.lift(row[col]));
    thread_values[static_cast<std::size_t>(tid)] = v;
  });
  for (int warp = 0; warp < num_warps; ++warp) {
    std::array<V, kWarpSize> lanes;
    for (int lane = 0; lane < kWarpSize; ++lane)
      lanes[lane] = thread_values[static_cast<std::size_t>(warp) * kWarpSize + lane];
    r.warp[warp] = model_warp_reduce<Schedule>(lanes, alg);
  }
  std::array<V, kWarpSize> lanes;
  for (int lane = 0; lane < kWarpSize; ++lane)
    lanes[lane] = lane < num_warps ? r.warp[lane] : alg.initial();
  r.row = model_warp_reduce<Schedule>(lanes, alg);
  return r;
}

/// The row's value of model_block_reduce_detail, in the order as written.
template <class Alg>
typename Alg::value_type model_block_reduce(const float* row, std::int64_t n, int block,
                                            const Alg& alg, const IndexLoop* loops = nullptr) {
  return model_block_reduce_detail(row, n, block, alg, loops).row;
}

}  // namespace osvs
