// Planted changes in the attention merge: each policy is MergeAsWritten (merge_policy.h) with one
// member changed, as mutation/'s merge mutants are, but written over the scalar so that formal/
// runs it symbolically. The kernels' source is never edited: the merge's steps are the policy's
// members, so a plant is one member hidden.
#pragma once

#include "osvs/kernels/attention/merge_policy.h"

namespace osvs::formal::planted {

/// The example: lse_a <= lse_b for lse_a < lse_b (on a tie the second operand is big).
struct LessEqual : MergeAsWritten {
  template <class F>
  static bool a_is_small(F lse_a, F lse_b) {
    return lse_a <= lse_b;
  }
};

/// The NaN / +inf guard dropped: a NaN lse takes the arithmetic path (mutation/'s
/// NanNotCanonical, over the scalar).
struct NanGuardDropped : MergeAsWritten {
  template <class F>
  static bool nan(F, F, F) {
    return false;
  }
};

/// The small partial's -inf guard dropped: an empty partial is weighed by b^(-inf - lse) instead
/// of being selected away.
struct SmallEmptyGuardDropped : MergeAsWritten {
  template <class F>
  static bool small_empty(F) {
    return false;
  }
};

}  // namespace osvs::formal::planted
