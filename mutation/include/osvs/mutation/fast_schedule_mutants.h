// The mutants of the fast kernel as schedule policies: each is the order as written
// (FastSchedule, fast_schedule_policy.h) with one member changed, and the kernel templates
// instantiated with it are the mutant, on the device (src/cuda/fast_mutants.cu) and on the host
// (src/kernel_mutants.cpp).
#pragma once

#include "osvs/kernels/fast_schedule_policy.h"
#include "osvs/mutation/one_member_mutant.h"

namespace osvs::mutation {

/// The fast kernel's mutants, in the catalogue's order (src/kernel_mutants.cpp), one row each,
/// which both declares the policy (below) and is what the catalogue and the device launchers
/// (src/cuda/fast_mutants.cu) are made of: X(Policy, member, value, name, defect), as
/// OSVS_TWO_PASS_ONE_MEMBER_MUTANTS's rows (block_schedule_mutants.h) with FastSchedule.
#define OSVS_FAST_MUTANTS(X)                                                               \
  X(FastLostChunk, kMergeAllChunks, false, fast_lost_chunk,                                \
    "fast kernel: the cross-block merge of a split row stops one chunk short")             \
  X(FastSkippedTail, kLoadTail, false, fast_skipped_tail,                                  \
    "fast kernel: only whole float4s are loaded, the row's last n % 4 elements never are") \
  X(FastPrefixMerge, kMergeInReductionOrder, false, fast_prefix_merge,                     \
    "fast kernel: block c merges the chunk states 0 .. c only (a scan's order, not a "     \
    "reduction's)")

#define OSVS_FAST_SCHEDULE_POLICY(Policy, member, value, ...) \
  OSVS_ONE_MEMBER_MUTANT(Policy, FastSchedule, member, value);
OSVS_FAST_MUTANTS(OSVS_FAST_SCHEDULE_POLICY)
#undef OSVS_FAST_SCHEDULE_POLICY

}  // namespace osvs::mutation
