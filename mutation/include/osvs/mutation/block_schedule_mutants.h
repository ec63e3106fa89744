// The structural mutants of the hardened 2-pass kernel as schedule policies: each is the order as
// written (BlockSchedule, block_schedule_policy.h) with one member changed, and the kernel
// templates instantiated with it are the mutant, on the device (src/cuda/two_pass_mutants.cu)
// and, where the CPU model can replay it, on the host (src/kernel_mutants.cpp).
#pragma once

#include "osvs/kernels/block_schedule_policy.h"
#include "osvs/mutation/one_member_mutant.h"

namespace osvs::mutation {

/// The 2-pass kernel's mutants that change one constant, in the catalogue's order
/// (src/kernel_mutants.cpp), one row each, which both declares the policy (below) and is what the
/// catalogue and the device launchers (src/cuda/two_pass_mutants.cu) are made of:
/// X(Policy, member, value, name, defect): the policy `Policy` is BlockSchedule with `member` set
/// to `value`, and the catalogue's mutant `name` runs it, its defect described by `defect`.
#define OSVS_TWO_PASS_ONE_MEMBER_MUTANTS(X)                                                   \
  X(ShuffleFromOffset8, kFirstShuffleOffset, 8, shuffle_from_offset_8,                        \
    "shuffle tree starts at offset 8: lanes 16..31 never reach lane 0")                       \
  X(ShuffleUp, kShuffleDown, false, shuffle_up, "__shfl_up_sync instead of __shfl_down_sync") \
  X(NoSyncBeforeSharedStage, kSyncBeforeSharedStage, false, no_sync_before_shared_stage,      \
    "__syncthreads() missing before warp 0 reads shared memory")                              \
  X(NoSyncBeforeBroadcast, kSyncBeforeBroadcast, false, no_sync_before_broadcast,             \
    "__syncthreads() missing before every thread reads the row's state")                      \
  X(NoLaneGuard, kLaneGuard, false, no_lane_guard,                                            \
    "`lane < NUM_WARPS` guard removed: warp 0 reads unwritten shared memory")                 \
  X(PerWarpDivisor, kDivideByRowState, false, per_warp_divisor,                               \
    "pass 2 divides by its warp's d instead of the row's")                                    \
  X(SkipLastElement, kLoopToRowEnd, false, skip_last_element, "stride loop stops at N - 1")

#define OSVS_BLOCK_SCHEDULE_POLICY(Policy, member, value, ...) \
  OSVS_ONE_MEMBER_MUTANT(Policy, BlockSchedule, member, value);
OSVS_TWO_PASS_ONE_MEMBER_MUTANTS(OSVS_BLOCK_SCHEDULE_POLICY)
#undef OSVS_BLOCK_SCHEDULE_POLICY

/// int32_index, the catalogue's last 2-pass mutant, changes a type: `row * N` and the column
/// loops in int, wrong once rows * cols >= 2^31.
struct Int32Index : BlockSchedule {
  using Index = int;
};

}  // namespace osvs::mutation
