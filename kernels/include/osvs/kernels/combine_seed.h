// SeedCombine: the lesson's combine operator, exactly as written there.
//
//   m = fmaxf(m1, m2);  d = d1 * expf(m1 - m) + d2 * expf(m2 - m)
//
// Algebra (what the properties hold it to):
//   exact laws     none bitwise. Commutativity fails under nvcc's default FMA contraction: the
//                  left product is fused and the right one rounded (fp_model.h), so a (+) b and
//                  b (+) a can differ in the last bit of d (about 2 % of random pairs on the H200).
//                  With --fmad=false it is bitwise commutative.
//   identity       (-FLT_MAX, 0) for states with finite m (the seed's initial state). The true
//                  identity (-inf, 0) fails: (-inf,0) (+) (-inf,0) = (-inf, NaN) since -inf - -inf
//                  is NaN.
//   approximate    associativity and order invariance within oracle/bounds.h (per-step cost:
//                  two exps, two products, one sum).
//   outputs        exp(x - m) / d; a fully masked row gives NaN (like PyTorch softmax).
//   specials       NaN elements: fmaxf drops them from m, but exp(NaN - m) makes d NaN, so the
//                  row's outputs are all NaN. +inf: d = NaN (inf - inf). -inf: contributes 0.
//
// Example (the lesson's worked numbers): [1, 2] gives (2, 1.367879), [3] gives (3, 1), and
// (2, 1.367879) (+) (3, 1) = (3, 1.503214) = e^-2 + e^-1 + e^0.
#pragma once

#include "osvs/kernels/exp.h"
#include "osvs/kernels/fp_model.h"
#include "osvs/kernels/state.h"

namespace osvs {

struct SeedCombine {
  static constexpr const char* kName = "seed";
  static constexpr bool kBitwiseCommutative = false;
  static constexpr bool kExactIdentity = false;  // (-inf, 0) is not an identity
  static constexpr bool kRescalesBothSides = true;
  static constexpr bool kMaskedRowZero = false;  // a fully masked row gives 0/0 = NaN
  /// Runs on bf16 / fp16 states too (narrow_float.h); so do the mutants derived from it whose
  /// combine is written over the state type (runs_on_narrow_states).
  static constexpr bool kNarrowStates = true;

  OSVS_HD static State initial() { return seed_initial_state(); }
  OSVS_HD static State lift(float x) { return State{x, 1.0f}; }
  /// S is State; formal/ instantiates the same source with a symbolic state (formal/README.md).
  template <class S>
  OSVS_HD static S combine(S a, S b) {
    const auto m = fmax_k(a.m, b.m);
    return S{m, mul_add_k(a.d, kexp(a.m - m), b.d, kexp(b.m - m))};
  }
  /// Pass 2 as written: exp(x - m) / d. A fully masked row (all -inf) gives 0/0 = NaN.
  OSVS_HD static float output(float x, State s) { return kexp(x - s.m) / s.d; }
};

}  // namespace osvs
