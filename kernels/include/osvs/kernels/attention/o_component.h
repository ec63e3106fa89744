// One lane's component of a combined o, the part that the attention state's combine
// (attention_state.h) and the merge of (lse, o) partials (merge_states.h) share: the special
// cases are settled by selection, never by arithmetic, and only two ordinary operands are rescaled.
#pragma once

#include "osvs/kernels/hd.h"

namespace osvs {

/// The component of o from a's (o_a) and b's (o_b) under `w` (an AttnWeights or an LseMerge: its
/// nan, both_empty, a_is_small and small_empty): the canonical NaN; +0 when both are empty; big's
/// bitwise when small is empty; else rescale(small, big), canonical if it comes out NaN. F is
/// float in the kernels, formal/'s symbolic binary32 in its proofs of the merge (merge_policy.h).
template <class Weights, class F, class Rescale>
OSVS_HD F combine_o_component(const Weights& w, F o_a, F o_b, Rescale rescale) {
  if (w.nan) return F(canonical_nan());
  if (w.both_empty) return F(0.0f);
  const F big = w.a_is_small ? o_b : o_a;
  const F small = w.a_is_small ? o_a : o_b;
  if (w.small_empty) return big;
  const F o = rescale(small, big);
  return is_nan(o) ? F(canonical_nan()) : o;
}

}  // namespace osvs
