// The structural mutants of the hardened 2-pass kernel as schedule policies: each is the order as
// written (BlockSchedule, block_schedule_policy.h) with one member changed, and the kernel
// templates instantiated with it are the mutant, on the device (src/cuda/two_pass_mutants.cu)
// and, where the CPU model can replay it, on the host (src/kernel_mutants.cpp).
#pragma once

#include "osvs/kernels/block_schedule_policy.h"
#include "osvs/mutation/one_member_mutant.h"

namespace osvs::mutation {

/// shuffle_from_offset_8: the shuffle tree starts at offset 8, so lanes 16 .. 31 never reach
/// lane 0.
OSVS_ONE_MEMBER_MUTANT(ShuffleFromOffset8, BlockSchedule, kFirstShuffleOffset, 8);

/// shuffle_up: __shfl_up_sync instead of __shfl_down_sync.
OSVS_ONE_MEMBER_MUTANT(ShuffleUp, BlockSchedule, kShuffleDown, false);

/// no_sync_before_shared_stage: no __syncthreads() before warp 0 reads the warps' values.
OSVS_ONE_MEMBER_MUTANT(NoSyncBeforeSharedStage, BlockSchedule, kSyncBeforeSharedStage, false);

/// no_sync_before_broadcast: no __syncthreads() before every thread reads the row's state.
OSVS_ONE_MEMBER_MUTANT(NoSyncBeforeBroadcast, BlockSchedule, kSyncBeforeBroadcast, false);

/// no_lane_guard: `lane < NUM_WARPS` removed, so warp 0 reads shared memory no warp wrote.
OSVS_ONE_MEMBER_MUTANT(NoLaneGuard, BlockSchedule, kLaneGuard, false);

/// per_warp_divisor: pass 2 divides by its warp's state instead of the row's.
OSVS_ONE_MEMBER_MUTANT(PerWarpDivisor, BlockSchedule, kDivideByRowState, false);

/// skip_last_element: the stride loop of the reduction stops at N - 1.
OSVS_ONE_MEMBER_MUTANT(SkipLastElement, BlockSchedule, kLoopToRowEnd, false);

/// int32_index: `row * N` and the column loops in int, wrong once rows * cols >= 2^31.
struct Int32Index : BlockSchedule {
  using Index = int;
};

}  // namespace osvs::mutation
