// The merge mutants' policies: each is MergeAsWritten (kernels/.../attention/merge_policy.h) with
// one step changed, the bug a merge_attn_states kernel can ship. The CPU model
// (merge_states_model_with) and the merge-states kernel (launch_merge_states_with) instantiate
// them, so a mutant is the kernel under test's own template, one member hidden.
#pragma once

#include "osvs/kernels/attention/merge_policy.h"

namespace osvs::mutation {

/// The merged lse is written before o's weight is taken: e = b^(small - merged lse).
struct OverwriteLse : MergeAsWritten {
  OSVS_HD static float o_weight(LseBase base, float small, float, float merged_lse) {
    return lse_exp(base, detail::sub_rn(small, merged_lse));
  }
};
/// o = (small.o + big.o) / d: the smaller partial's o is not rescaled by e.
struct NoRescale : MergeAsWritten {
  OSVS_HD static float rescaled_sum(float small, float, float big) {
    return detail::add_rn(small, big);
  }
};
/// exp and log in base e whatever the declared base.
struct BaseConfusion : MergeAsWritten {
  OSVS_HD static LseBase base(LseBase) { return LseBase::E; }
};
/// The -inf guards removed: an empty partial's o and -inf - -inf reach o.
struct EmptyGivesNan : MergeAsWritten {
  OSVS_HD static bool small_empty(float) { return false; }
  OSVS_HD static bool both_empty(float) { return false; }
};
/// lse = big.lse: log_b(1 + e) never added.
struct LseNotUpdated : MergeAsWritten {
  OSVS_HD static float merged_lse(float big, float) { return big; }
};
/// o = small.o * e + big.o: never divided by the weights' sum d = 1 + e.
struct WrongNormaliser : MergeAsWritten {
  OSVS_HD static float normalised(float sum, float) { return sum; }
};
/// The smaller partial is dropped as if it were empty: a split lost.
struct SmallDropped : MergeAsWritten {
  OSVS_HD static bool small_empty(float) { return true; }
};
/// Components merged in chunks of 4: the last head_dim % 4 are never written (0).
struct TailSkipped : MergeAsWritten {
  OSVS_HD static constexpr int merged_components(int head_dim) { return head_dim / 4 * 4; }
};
/// The first operand is always the big one: roles by position, not by the larger lse.
struct PositionalOrder : MergeAsWritten {
  OSVS_HD static bool a_is_small(float, float) { return false; }
};
/// The NaN / +inf guard removed: a NaN lse leaves its payload, +inf merges as a value.
struct NanNotCanonical : MergeAsWritten {
  OSVS_HD static bool nan(float, float, float) { return false; }
};

/// The merge mutants, in the catalogue's order, one row each, which is what the catalogue
/// (src/merge_mutants.cpp) and the device launchers (src/cuda/merge_mutants.cu) are made of:
/// X(Policy, name, bug): the catalogue's mutant `name` runs the policy `Policy` above, the bug
/// described by `bug`.
#define OSVS_MERGE_MUTANTS(X)                                                                 \
  X(OverwriteLse, overwrite_lse,                                                              \
    "the merged lse is written before o is rescaled: o's weight is b^(small - merged lse)")   \
  X(NoRescale, no_rescale, "the smaller partial's o is not rescaled by e = b^(small - big)")  \
  X(BaseConfusion, base_confusion, "exp and log in base e whatever the declared lse base")    \
  X(EmptyGivesNan, empty_gives_nan,                                                           \
    "the -inf guards removed: an empty partial's o (never to be read) and "                   \
    "-inf - -inf reach o")                                                                    \
  X(LseNotUpdated, lse_not_updated, "lse = the larger lse: log_b(1 + e) is never added")      \
  X(WrongNormaliser, wrong_normaliser, "o is never divided by the sum of the weights, 1 + e") \
  X(SmallDropped, small_dropped, "the smaller partial is dropped as if it were empty")        \
  X(TailSkipped, tail_skipped,                                                                \
    "o is merged in chunks of 4 components: the last head_dim % 4 are never written")         \
  X(PositionalOrder, positional_order,                                                        \
    "the first operand is always the big one: roles by position, not by the larger lse")      \
  X(NanNotCanonical, nan_not_canonical,                                                       \
    "the NaN / +inf lse guard removed: NaN payloads pass through and "                        \
    "+inf merges as a value")

}  // namespace osvs::mutation
