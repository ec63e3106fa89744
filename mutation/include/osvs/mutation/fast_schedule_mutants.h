// The mutants of the fast kernel as schedule policies: each is the order as written
// (FastSchedule, fast_schedule_policy.h) with one member changed, and the kernel templates
// instantiated with it are the mutant, on the device (src/cuda/fast_mutants.cu) and on the host
// (src/kernel_mutants.cpp).
#pragma once

#include "osvs/kernels/fast_schedule_policy.h"
#include "osvs/mutation/one_member_mutant.h"

namespace osvs::mutation {

/// fast_lost_chunk: the cross-block merge of a row of several parts stops one part short.
OSVS_ONE_MEMBER_MUTANT(FastLostChunk, FastSchedule, kMergeAllChunks, false);

/// fast_skipped_tail: only whole float4s are loaded; the row's last n % 4 elements never are.
OSVS_ONE_MEMBER_MUTANT(FastSkippedTail, FastSchedule, kLoadTail, false);

/// fast_prefix_merge: block c merges the part states 0 .. c only (a scan's order, not a
/// reduction's).
OSVS_ONE_MEMBER_MUTANT(FastPrefixMerge, FastSchedule, kMergeInReductionOrder, false);

}  // namespace osvs::mutation
