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
struct MutantOverwriteM {
  static constexpr const char* kName = "mutant_overwrite_m";
  static constexpr bool kRescalesBothSides = true;
  OSVS_HD static State initial() { return seed_initial_state(); }
  OSVS_HD static State lift(float x) { return State{x, 1.0f}; }
  OSVS_HD static State combine(State a, State b) {
    const float m = fmax_k(a.m, b.m);
    a.m = m;  // the bug: the old m1 is gone before it is used
    return State{m, mul_add_k(a.d, kexp(a.m - m), b.d, kexp(b.m - m))};
  }
  OSVS_HD static float output(float x, State s) { return SeedCombine::output(x, s); }
};

/// The lesson's second named bug: d never rescaled (d = d1 + d2).
struct MutantNoRescale {
  static constexpr const char* kName = "mutant_no_rescale";
  static constexpr bool kRescalesBothSides = true;
  OSVS_HD static State initial() { return seed_initial_state(); }
  OSVS_HD static State lift(float x) { return State{x, 1.0f}; }
  OSVS_HD static State combine(State a, State b) { return State{fmax_k(a.m, b.m), a.d + b.d}; }
  OSVS_HD static float output(float x, State s) { return SeedCombine::output(x, s); }
};

/// The naive identity: the seed's unguarded formula started from (-inf, 0), so an empty or fully
/// masked thread computes -inf - -inf = NaN.
struct MutantNaiveIdentity {
  static constexpr const char* kName = "mutant_naive_identity";
  static constexpr bool kRescalesBothSides = true;
  OSVS_HD static State initial() { return identity_state(); }
  OSVS_HD static State lift(float x) { return SeedCombine::lift(x); }
  OSVS_HD static State combine(State a, State b) { return SeedCombine::combine(a, b); }
  OSVS_HD static float output(float x, State s) { return SeedCombine::output(x, s); }
};

/// The hardened combine without its tie rule: on equal m's it keeps the first operand's m bits
/// (so (-0, d) (+) (+0, d') and (+0, d') (+) (-0, d) differ in the sign of m) and rescales the
/// second operand with exp(0) computed as a product that nvcc fuses asymmetrically.
struct MutantUnorderedTies {
  static constexpr const char* kName = "mutant_unordered_ties";
  static constexpr bool kRescalesBothSides = false;
  OSVS_HD static State initial() { return identity_state(); }
  OSVS_HD static State lift(float x) { return HardenedCombine::lift(x); }
  OSVS_HD static State combine(State a, State b) {
    const bool a_small = a.m < b.m;
    const State big = a_small ? b : a;
    const State small = a_small ? a : b;
    const float e = small.m == -__builtin_huge_valf() ? 0.0f : kexp(small.m - big.m);
    const float d = mul_add_k(small.d, e, big.d);
    if (is_nan(big.m) || is_nan(d)) return State{canonical_nan(), canonical_nan()};
    return State{big.m, d};  // the bug: big.m, not the tie rule
  }
  OSVS_HD static float output(float x, State s) { return HardenedCombine::output(x, s); }
};

/// The hardened combine with the fast intrinsic __expf (2 + floor(1.173 |x|) ulp) instead of
/// expf, in the combine and in pass 2. The CPU model imitates __expf's dominant error, the
/// rounding of x * log2(e) before a base-2 exponential.
OSVS_HD float fast_exp(float x) {
#if defined(__CUDA_ARCH__)
  return __expf(x);
#else
  return std::exp2(x * 1.44269502162933349609375f);
#endif
}

struct MutantFastExp {
  static constexpr const char* kName = "mutant_fast_exp";
  static constexpr bool kRescalesBothSides = false;
  OSVS_HD static State initial() { return identity_state(); }
  OSVS_HD static State lift(float x) { return HardenedCombine::lift(x); }
  OSVS_HD static State combine(State a, State b) {
    const bool a_small = a.m < b.m;
    const State big = a_small ? b : a;
    const State small = a_small ? a : b;
    const float m = a.m == b.m ? bits_float(float_bits(a.m) & float_bits(b.m)) : big.m;
    const float e = small.m == -__builtin_huge_valf() ? 0.0f : fast_exp(small.m - big.m);
    const float d = mul_add_k(small.d, e, big.d);
    if (is_nan(m) || is_nan(d)) return State{canonical_nan(), canonical_nan()};
    return State{m, d};
  }
  OSVS_HD static float output(float x, State s) {
    return s.d == 0.0f ? 0.0f : fast_exp(x - s.m) / s.d;
  }
};

}  // namespace osvs
