// The merge of two partial attention results in the form engines exchange: (lse, o), o normalised
// (o = sum p_j v_j over the chunk), lse in base e or 2 (lse_math.h). This is what a
// `merge_attn_states` kernel computes after split-KV (flash-decoding) attention:
//
//   lse = log_b(b^lse_a + b^lse_b),   o = (b^lse_a o_a + b^lse_b o_b) / (b^lse_a + b^lse_b).
//
// Hardened form, one exp (osvs's recommendation; docs/semantics.md §8):
//
//   big, small  the operand with the larger lse; on a tie, the first operand is big
//   empty       lse = -inf: a chunk with no key or only masked keys; its o is never read (the
//               convention "o of an empty partial: anything")
//   e           b^(small.lse - big.lse) in (0, 1]                                      (one exp)
//   d           1 + e, in [1, 2]
//   lse         big.lse + log_b(d)
//   o_c         (small.o_c * e + big.o_c) / d                           (one fma, one division)
//   special     small empty: (lse, o) = big's, bitwise; both empty: (-inf, +0), never NaN;
//               a NaN or +inf lse on either side: (NaN, NaN...) canonical; an o_c that comes out
//               NaN is the canonical NaN.
//
// Exact laws (bitwise, by construction): commutativity (off a tie the roles are fixed; on a tie
// e = b^(+-0) = 1, d = 2, o_c = fl(fl(o_a + o_b) / 2) either way, lse = big.lse + log_b(2) with
// big.lse == small.lse as values; -0 and +0 give the same sum) and identity on either side.
// Approximate: associativity and tree invariance within oracle/attention_bounds.h.
#pragma once

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/attention/merge_policy.h"
#include "osvs/kernels/attention/o_component.h"
#include "osvs/kernels/fp_model.h"

namespace osvs {

/// What merging two lse's decided, for the lanes' o updates. F is float in the kernels; formal/
/// instantiates the merge with its symbolic binary32 (merge_policy.h).
template <class F>
struct LseMergeOf {
  F lse;             ///< the merged lse
  F e;               ///< b^(small.lse - big.lse)
  F d;               ///< 1 + e
  bool a_is_small;   ///< the first operand is the small one
  bool small_empty;  ///< o = big.o, bitwise
  bool both_empty;   ///< o = +0
  bool nan;          ///< o = canonical NaN
};
using LseMerge = LseMergeOf<float>;

/// The merge of the lse's, each step as Policy writes it (merge_policy.h: MergeAsWritten in every
/// kernel under test; a mutant of mutation/ changes one step, on the CPU model and the device).
template <class Policy = MergeAsWritten, class F>
OSVS_HD LseMergeOf<F> merge_lse(F lse_a, F lse_b, LseBase declared_base) {
  const LseBase base = Policy::base(declared_base);
  const bool a_is_small = Policy::a_is_small(lse_a, lse_b);
  const F big = a_is_small ? lse_b : lse_a;
  const F small = a_is_small ? lse_a : lse_b;
  const bool nan = Policy::nan(lse_a, lse_b, big);
  const bool small_empty = Policy::small_empty(small);
  const bool both_empty = Policy::both_empty(big);
  const F e = small_empty ? F(0.0f) : lse_exp(base, detail::sub_rn(small, big));
  const F d = detail::add_rn(F(1.0f), e);
  const F lse =
      nan ? F(canonical_nan()) : (small_empty ? big : Policy::merged_lse(big, lse_log(base, d)));
  const F weight = small_empty ? e : Policy::o_weight(base, small, e, lse);
  return {lse, weight, d, a_is_small, small_empty, both_empty, nan};
}

template <class Policy = MergeAsWritten, class F>
OSVS_HD F merge_o(const LseMergeOf<F>& r, F o_a, F o_b) {
  return combine_o_component(r, o_a, o_b, [&](F small, F big) {
    return Policy::normalised(Policy::rescaled_sum(small, r.e, big), r.d);
  });
}

}  // namespace osvs
