// HardenedCombine: the combine osvs recommends.
//
//   big, small  = the operand with the larger m and the other; on a tie, the first operand is big
//   m           = big.m, or on a tie the AND of both m's bits (+0 wins over -0 in either order)
//   e           = 0 if small.m == -inf (the identity contributes nothing), else exp(small.m -
//   big.m) d           = small.d * e + big.d          (one exp; nvcc contracts it into one fma) m
//   or d NaN  -> (NaN, NaN), the canonical quiet NaN without payload
//
// Algebra:
//   exact laws     commutativity, bitwise, by construction and whatever the FMA contraction: off a
//                  tie the roles of a and b are fixed by their m's; on a tie e = exp(+-0) = 1
//                  exactly, so d = fl(a.d + b.d) in either order, and m's bits are AND-ed.
//                  Identity (-inf, 0), bitwise, on both sides and for (-inf,0) (+) (-inf,0):
//                  e = 0 replaces exp(-inf - -inf) = NaN, and 0 * 0 + d = d.
//                  (A state with m = -inf stands for an empty multiset, so its d is 0; two such
//                  operands give d = 0 whatever they carry, which keeps the operator total.)
//   approximate    associativity and order invariance within oracle/bounds.h (per-step cost:
//                  one exp, one product and one sum on the smaller side, one sum on the larger).
//   outputs        exp(x - m) / d; a fully masked row (all -inf, or N = 0) gives 0s.
//   specials       lift(NaN) and lift(+inf) are the NaN state, so a row with NaN or +inf gives
//                  NaN outputs (PyTorch's convention); lift(-inf) is the identity (masked).
//                  (-FLT_MAX, 0) is absorbed by finite states but is not an identity for (-inf, 0).
//
// Cost: one exp instead of the seed's two; no branch (selects only).
#pragma once

#include "osvs/kernels/exp.h"
#include "osvs/kernels/exp_functors.h"
#include "osvs/kernels/fp_model.h"
#include "osvs/kernels/state.h"

namespace osvs {

/// The hardened operator over a choice of exp (a functor), so that a mutant can swap the exp alone.
template <class Exp>
struct HardenedCombineWith {
  static constexpr const char* kName = "hardened";
  static constexpr bool kBitwiseCommutative = true;
  static constexpr bool kExactIdentity = true;
  static constexpr bool kRescalesBothSides = false;
  static constexpr bool kMaskedRowZero = true;  // d == 0 gives 0s (flash-attention's convention)

  OSVS_HD static State initial() { return identity_state(); }
  OSVS_HD static State lift(float x) {
    if (!(x < __builtin_huge_valf())) return State{canonical_nan(), canonical_nan()};  // NaN, +inf
    if (x == -__builtin_huge_valf()) return identity_state();
    return State{x, 1.0f};
  }
  /// S is State; formal/ instantiates the same source with a symbolic state (formal/README.md).
  template <class S>
  OSVS_HD static S combine(S a, S b) {
    const bool a_small = a.m < b.m;
    const S big = a_small ? b : a;
    const S small = a_small ? a : b;
    const auto m = a.m == b.m ? bits_float(float_bits(a.m) & float_bits(b.m)) : big.m;
    const auto e = small.m == -__builtin_huge_valf() ? 0.0f : Exp{}(small.m - big.m);
    // Both m = -inf: two empty multisets, d = 0 whatever d's the operands carry (total operator).
    const auto d = big.m == -__builtin_huge_valf() ? 0.0f : mul_add_k(small.d, e, big.d);
    // Any NaN operand gives the NaN state, tested on the operands themselves: a NaN that lands on
    // the small side is otherwise dropped by the two-empty-multisets rule ((-inf, 0) (+) (NaN, NaN)
    // gave (-inf, 0); found by the identity, commutativity and special-values properties). A d that
    // comes out NaN (two m = +inf: inf - inf) likewise. Checked last, so the code stays
    // branch-free.
    if (unordered(a.m, b.m) || unordered(a.d, b.d) || is_nan(d))
      return S{canonical_nan(), canonical_nan()};
    return S{m, d};
  }
  /// Pass 2: exp(x - m) / d, and 0 for every element of a fully masked row (d == 0), the
  /// flash-attention convention. NaN rows stay NaN.
  OSVS_HD static float output(float x, State s) {
    return s.d == 0.0f ? 0.0f : Exp{}(x - s.m) / s.d;
  }
};

struct HardenedCombine : HardenedCombineWith<KernelExp> {
  /// Runs on bf16 / fp16 states too (narrow_float.h): kexp has a Narrow overload.
  static constexpr bool kNarrowStates = true;
};

}  // namespace osvs
