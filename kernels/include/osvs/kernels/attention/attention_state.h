// The attention state (m, d, o) of a chunk of keys, and its hardened combine.
//
// For one query with scores s_j (already in the lse's base units, see lse_math.h) and value rows
// v_j, a chunk J of keys has the state m = max s_j, d = sum_J b^(s_j - m) and, per component c,
// o_c = sum_J b^(s_j - m) v_jc: the running, rescaled, unnormalised output. (m, d) is the
// online-softmax state of state.h; o rides along and is rescaled by the same factor as d. The empty
// chunk (no key, or only masked keys) is (-inf, 0, o ignored), the identity.
//
// The combine is HardenedCombine's rule (combine_hardened.h) extended with o. It returns the
// weights once (AttnWeights) and each lane applies them to its components (attn_combine_o):
//
//   big, small  the operand with the larger m; on a tie, the first operand is big
//   m           big.m, or on a tie the AND of both m's bits (+0 wins over -0 in either order)
//   e           0 if small is empty (small.m == -inf), else b^(small.m - big.m)       (one exp)
//   d           0 if both are empty; big.d if small is empty; else small.d * e + big.d  (one fma)
//   o_c         0 if both are empty; big.o_c if small is empty; else small.o_c * e + big.o_c
//   NaN         a NaN m or d on either side, or a NaN d: the canonical NaN state, every o_c the
//               canonical NaN; an o_c that comes out NaN (a NaN or inf*0 in v) is canonical too
//
// Exact laws (bitwise, by construction): commutativity (off a tie the roles are fixed by the m's;
// on a tie e = b^(+-0) = 1 exactly, so d = fl(a.d + b.d) and o_c = fl(a.o_c + b.o_c) in either
// order); identity on either side, and empty (+) empty = empty with o = +0, never NaN: the empty
// operand is selected away, never multiplied (0 * inf would be NaN, -0 + 0 would be +0).
// Approximate: associativity and order invariance, within oracle/attention_bounds.h.
#pragma once

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/attention/o_component.h"
#include "osvs/kernels/fp_model.h"
#include "osvs/kernels/state.h"

namespace osvs {

/// What combining the (m, d) parts of two attention states decided, for the lanes' o updates.
struct AttnWeights {
  State s;           ///< the combined (m, d)
  float e;           ///< b^(small.m - big.m), 0 when small is empty
  bool a_is_small;   ///< the first operand is the small one
  bool small_empty;  ///< the small operand is empty: o = big.o, bitwise
  bool both_empty;   ///< both empty: o = +0
  bool nan;          ///< the NaN state: o = canonical NaN
};

/// The state of one key with score s: (s, 1); a masked key (s = -inf) is the identity; a NaN or
/// +inf score gives the NaN state (PyTorch's convention for +inf, docs/semantics.md §8).
OSVS_HD State attn_lift(float s) {
  if (!(s < __builtin_huge_valf())) return State{canonical_nan(), canonical_nan()};
  if (s == -__builtin_huge_valf()) return identity_state();
  return State{s, 1.0f};
}

/// Combines the (m, d) parts of a and b; one exp.
OSVS_HD AttnWeights attn_combine(State a, State b, LseBase base) {
  const float inf = __builtin_huge_valf();
  AttnWeights w;
  w.a_is_small = a.m < b.m;
  const State big = w.a_is_small ? b : a;
  const State small = w.a_is_small ? a : b;
  const float m = a.m == b.m ? bits_float(float_bits(a.m) & float_bits(b.m)) : big.m;
  w.small_empty = small.m == -inf;
  w.both_empty = big.m == -inf;
  w.e = w.small_empty ? 0.0f : lse_exp(base, detail::sub_rn(small.m, big.m));
  const float d = w.both_empty ? 0.0f : (w.small_empty ? big.d : mul_add_k(small.d, w.e, big.d));
  w.nan = unordered(a.m, b.m) || unordered(a.d, b.d) || is_nan(d);
  w.s = w.nan ? State{canonical_nan(), canonical_nan()} : State{m, d};
  return w;
}

/// One component of the combined o, from a's and b's.
OSVS_HD float attn_combine_o(const AttnWeights& w, float o_a, float o_b) {
  return combine_o_component(w, o_a, o_b,
                             [&](float small, float big) { return mul_add_k(small, w.e, big); });
}

/// The lse of a state: m + log_b(d); -inf for the empty state, NaN for the NaN state.
OSVS_HD float attn_lse(State s, LseBase base) {
  if (is_nan(s.m) || is_nan(s.d)) return canonical_nan();
  if (s.m == -__builtin_huge_valf()) return s.m;
  return detail::add_rn(s.m, lse_log(base, s.d));
}

/// A normalised output component o_c / d; 0 for the empty state (the documented empty result).
OSVS_HD float attn_normalise(float o, State s) {
  if (is_nan(s.m) || is_nan(s.d)) return canonical_nan();
  if (s.m == -__builtin_huge_valf()) return 0.0f;
  const float y = detail::div_rn(o, s.d);
  return is_nan(y) ? canonical_nan() : y;
}

}  // namespace osvs
