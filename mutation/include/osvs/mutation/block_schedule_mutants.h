// The structural mutants of the hardened 2-pass kernel as schedule policies: each is the order as
// written (BlockSchedule, block_schedule_policy.h) with one member changed, and the kernel
// templates instantiated with it are the mutant, on the device (src/cuda/two_pass_mutants.cu)
// and, where the CPU model can replay it, on the host (src/kernel_mutants.cpp).
#pragma once

#include "osvs/kernels/block_schedule_policy.h"

namespace osvs::mutation {

/// shuffle_from_offset_8: the shuffle tree starts at offset 8, so lanes 16 .. 31 never reach
/// lane 0.
struct ShuffleFromOffset8 : BlockSchedule {
  static constexpr int kFirstShuffleOffset = 8;
};

/// shuffle_up: __shfl_up_sync instead of __shfl_down_sync.
struct ShuffleUp : BlockSchedule {
  static constexpr bool kShuffleDown = false;
};

/// no_sync_before_shared_stage: no __syncthreads() before warp 0 reads the warps' values.
struct NoSyncBeforeSharedStage : BlockSchedule {
  static constexpr bool kSyncBeforeSharedStage = false;
};

/// no_sync_before_broadcast: no __syncthreads() before every thread reads the row's state.
struct NoSyncBeforeBroadcast : BlockSchedule {
  static constexpr bool kSyncBeforeBroadcast = false;
};

/// no_lane_guard: `lane < NUM_WARPS` removed, so warp 0 reads shared memory no warp wrote.
struct NoLaneGuard : BlockSchedule {
  static constexpr bool kLaneGuard = false;
};

/// per_warp_divisor: pass 2 divides by its warp's state instead of the row's.
struct PerWarpDivisor : BlockSchedule {
  static constexpr bool kDivideByRowState = false;
};

/// skip_last_element: the stride loop of the reduction stops at N - 1.
struct SkipLastElement : BlockSchedule {
  static constexpr bool kLoopToRowEnd = false;
};

/// int32_index: `row * N` and the column loops in int, wrong once rows * cols >= 2^31.
struct Int32Index : BlockSchedule {
  using Index = int;
};

}  // namespace osvs::mutation
