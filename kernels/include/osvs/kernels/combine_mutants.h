// Deliberately broken combine operators: the mutants the property suite must kill
// (reports/mutation/). Each is one change away from a real operator and documents that change.
// They are never used by the kernels under test; the mutation driver selects them by CombineKind.
// A mutant is held to the algebra of the operator it came from (combine_kind.h, original_of), and
// kRescalesBothSides is that operator's, so its bound is the original's bound.
#pragma once

#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/combine_seed.h"

namespace osvs {

/// The lesson's first named bug: m overwritten before d is rescaled.
///   m1 = max(m1, m2); d1 = d1 * exp(m1 - m) + d2 * exp(m2 - m)   -> d1's factor is exp(0) = 1
struct MutantOverwriteM : SeedCombine {
  static constexpr const char* kName = "mutant_overwrite_m";
  OSVS_HD static State combine(State a, State b) {
    const float m = fmax_k(a.m, b.m);
    a.m = m;  // the bug: the old m1 is gone before it is used
    return State{m, mul_add_k(a.d, kexp(a.m - m), b.d, kexp(b.m - m))};
  }
};

/// The lesson's second named bug: d never rescaled (d = d1 + d2).
struct MutantNoRescale : SeedCombine {
  static constexpr const char* kName = "mutant_no_rescale";
  OSVS_HD static State combine(State a, State b) { return State{fmax_k(a.m, b.m), a.d + b.d}; }
};

/// The naive identity: the seed's unguarded formula started from (-inf, 0), so an empty or fully
/// masked thread computes -inf - -inf = NaN.
struct MutantNaiveIdentity : SeedCombine {
  static constexpr const char* kName = "mutant_naive_identity";
  OSVS_HD static State initial() { return identity_state(); }
};

/// The hardened combine without its tie rule: on equal m's it keeps the first operand's m bits,
/// so (-0, d) (+) (+0, d') and (+0, d') (+) (-0, d) differ in the sign of m.
struct MutantUnorderedTies : HardenedCombine {
  static constexpr const char* kName = "mutant_unordered_ties";
  /// S is State; formal/ instantiates the same source with a symbolic state and finds the tie.
  template <class S>
  OSVS_HD static S combine(S a, S b) {
    const S r = HardenedCombine::combine(a, b);
    if (is_nan(r.m)) return r;
    return S{a.m < b.m ? b.m : a.m, r.d};  // the bug: the first operand's m on a tie
  }
};

/// The fast intrinsic __expf (2 + floor(1.173 |x|) ulp) instead of expf, in the combine and in
/// pass 2. The CPU model imitates __expf's dominant error: the rounding of x * log2(e) before a
/// base-2 exponential.
struct FastExp {
  OSVS_HD float operator()(float x) const {
#if defined(__CUDA_ARCH__)
    return __expf(x);
#else
    return std::exp2(x * 1.44269502162933349609375f);
#endif
  }
};

struct MutantFastExp : HardenedCombineWith<FastExp> {
  static constexpr const char* kName = "mutant_fast_exp";
};

}  // namespace osvs
