// BlockSchedule: the order of the one-block-per-row kernels, as written, as a policy type.
//
// The CPU model (block_schedule.h, two_pass_model.h) and the device code (cuda/block_reduce.cuh,
// cuda/softmax_kernels.cuh) are templates over a schedule policy and read the same static
// constexpr members below, so one policy drives both executors: one kernel, two executors. The
// kernels under test instantiate BlockSchedule (the seed's 2-pass kernel SeedBlockSchedule);
// mutation/ derives its mutants from BlockSchedule, each changing one member
// (mutation/README.md).
#pragma once

#include <cstdint>

namespace osvs {

struct BlockSchedule {
  /// The first offset of each warp's shuffle tree, halved after each step down to 1: 16 (half a
  /// warp) folds all 32 lanes into lane 0.
  static constexpr int kFirstShuffleOffset = 16;
  /// Lane l combines with lane l + offset (__shfl_down_sync; a partner past lane 31 is the lane
  /// itself); false: with lane l - offset (__shfl_up_sync; a partner below lane 0 is the lane).
  static constexpr bool kShuffleDown = true;
  /// A __syncthreads() between the warps' stores of their values to shared memory and warp 0's
  /// reads of them.
  static constexpr bool kSyncBeforeSharedStage = true;
  /// A __syncthreads() between warp 0's store of the row's value and every thread's read of it.
  static constexpr bool kSyncBeforeBroadcast = true;
  /// Warp 0's lanes at or past the number of warps start from the initial value (the guard
  /// `lane < NUM_WARPS`), instead of reading shared-memory slots no warp wrote.
  static constexpr bool kLaneGuard = true;
  /// Pass 2 divides by the row's state; false: each thread by its own warp's state (lane 0's
  /// after the warp's tree).
  static constexpr bool kDivideByRowState = true;
  /// Each thread's stride loop of the reduction runs to the row's end n; false: it stops at
  /// n - 1 (pass 2 still writes every element).
  static constexpr bool kLoopToRowEnd = true;
  /// The type of the 2-pass kernel's row offset `row * N` and of its column loops (the 3-pass
  /// kernel always uses int64). The CPU model indexes in int64 whatever the policy says.
  using Index = std::int64_t;
};

/// The seed's 2-pass kernel as the lesson wrote it: BlockSchedule's order with the row offset and
/// the column loops in int (validation keeps its batches inside int: validate.h,
/// kSeedIndexLimit and seed_column_limit).
struct SeedBlockSchedule : BlockSchedule {
  using Index = int;
};

}  // namespace osvs
