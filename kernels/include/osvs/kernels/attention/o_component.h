// One lane's component of a combined o, the part that the attention state's combine
// (attention_state.h) and the merge of (lse, o) partials (merge_states.h) share: the special
// cases are settled by selection, never by arithmetic, and only two ordinary operands are rescaled.
#pragma once

#include "osvs/kernels/hd.h"

namespace osvs {

/// The component of o from a's (o_a) and b's (o_b) under `w` (an AttnWeights or an LseMerge: its
/// nan, both_empty, a_is_small and small_empty): the canonical NaN; +0 when both are empty; big's
/// bitwise when small is empty; else rescale(small, big), canonical if it comes out NaN.
template <class Weights, class Rescale>
OSVS_HD float combine_o_component(const Weights& w, float o_a, float o_b, Rescale rescale) {
  if (w.nan) return canonical_nan();
  if (w.both_empty) return 0.0f;
  const float big = w.a_is_small ? o_b : o_a;
  const float small = w.a_is_small ? o_a : o_b;
  if (w.small_empty) return big;
  const float o = rescale(small, big);
  return is_nan(o) ? canonical_nan() : o;
}

}  // namespace osvs
