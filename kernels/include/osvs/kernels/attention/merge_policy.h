// MergeAsWritten: the steps of the merge of two (lse, o) partials (merge_states.h) as a policy
// type.
//
// The CPU model (merge_model.h) and the merge-states kernel (src/cuda/attention/) are templates
// over a merge policy and call the static members below at the step each names, so one policy
// drives both executors: one kernel, two executors. The kernels under test instantiate
// MergeAsWritten; mutation/ derives its merge mutants from it, each hiding one member
// (mutation/include/osvs/mutation/merge_mutant_policies.h).
//
// The members that compute are written over the scalar F: float in both executors (the code the
// kernels run), formal/'s symbolic binary32 when formal/ proves the merge's exact laws from this
// source (formal/README.md). A mutant's float-only member hides the template as before.
#pragma once

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/fp_model.h"

namespace osvs {

struct MergeAsWritten {
  /// The base the merge's exp and log are taken in: the declared one.
  OSVS_HD static LseBase base(LseBase declared) { return declared; }
  /// Whether the first operand is the smaller one: by the lse's; on a tie the first is big.
  template <class F>
  OSVS_HD static bool a_is_small(F lse_a, F lse_b) {
    return lse_a < lse_b;
  }
  /// The NaN guard: a NaN lse on either side, or a +inf one, gives the canonical NaN.
  template <class F>
  OSVS_HD static bool nan(F lse_a, F lse_b, F big) {
    return unordered(lse_a, lse_b) || big == __builtin_huge_valf();
  }
  /// The -inf guards: the smaller partial is empty (o = big's), both are (o = +0).
  template <class F>
  OSVS_HD static bool small_empty(F small) {
    return small == -__builtin_huge_valf();
  }
  template <class F>
  OSVS_HD static bool both_empty(F big) {
    return big == -__builtin_huge_valf();
  }
  /// The merged lse of two non-empty partials: big.lse + log_b(1 + e).
  template <class F>
  OSVS_HD static F merged_lse(F big, F log_d) {
    return detail::add_rn(big, log_d);
  }
  /// The weight of the smaller partial's o: e = b^(small.lse - big.lse), taken before the merged
  /// lse is written (merged_lse is there for a mutant that takes it after).
  template <class F>
  OSVS_HD static F o_weight(LseBase, F, F e, F /*merged_lse*/) {
    return e;
  }
  /// small.o * e + big.o (one fma where the device contracts it).
  template <class F>
  OSVS_HD static F rescaled_sum(F small, F e, F big) {
    return mul_add_k(small, e, big);
  }
  /// The sum divided by the weights' sum d = 1 + e.
  template <class F>
  OSVS_HD static F normalised(F sum, F d) {
    return detail::div_rn(sum, d);
  }
  /// How many of a row's head_dim components are merged (the rest are written as 0): all.
  OSVS_HD static constexpr int merged_components(int head_dim) { return head_dim; }
};

}  // namespace osvs
