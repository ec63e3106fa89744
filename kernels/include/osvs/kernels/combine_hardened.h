// HardenedCombine: the combine osvs recommends.
//
//   (big, small) = canonical order of (a, b)   larger m first; ties by d, then by sign bits
//   small.m == -inf      ->  big                (the identity is absorbed exactly)
//   either side NaN      ->  (NaN, NaN)         canonical quiet NaN, no payload
//   otherwise            ->  (big.m, big.d + small.d * exp(small.m - big.m))
//
// Algebra:
//   exact laws     commutativity, bitwise, by construction: the result is a function of the
//                  unordered pair {a, b}, whatever the FMA contraction of the last line.
//                  Identity (-inf, 0), bitwise, on both sides and for (-inf,0) (+) (-inf,0).
//   approximate    associativity and order invariance within oracle/bounds.h (per-step cost:
//                  one exp, one product and one sum on the smaller side, one sum on the larger).
//   outputs        exp(x - m) / d; a fully masked row (all -inf, or N = 0) gives 0s.
//   specials       lift(NaN) and lift(+inf) are the NaN state, so a row with NaN or +inf gives
//                  NaN outputs (PyTorch's convention); lift(-inf) is the identity (masked).
//                  (-FLT_MAX, 0) is absorbed for finite states but is not an identity for (-inf,
//                  0).
//
// Cost: one exp instead of two (the big side's exp(0) is not evaluated).
#pragma once

#include "osvs/kernels/exp.h"
#include "osvs/kernels/fp_model.h"
#include "osvs/kernels/state.h"

namespace osvs {

namespace detail {
/// Strict total order on states used to pick the "big" side: by m, then d, then sign bits.
OSVS_HD bool state_less(State a, State b) {
  if (a.m != b.m) return a.m < b.m;
  if (a.d != b.d) return a.d < b.d;
  const std::uint32_t ka = (float_bits(a.m) >> 31) << 1 | (float_bits(a.d) >> 31);
  const std::uint32_t kb = (float_bits(b.m) >> 31) << 1 | (float_bits(b.d) >> 31);
  return ka > kb;  // a negative zero orders below a positive one
}
}  // namespace detail

struct HardenedCombine {
  static constexpr const char* kName = "hardened";
  static constexpr bool kBitwiseCommutative = true;
  static constexpr bool kExactIdentity = true;
  static constexpr bool kRescalesBothSides = false;

  OSVS_HD static State initial() { return identity_state(); }
  OSVS_HD static State lift(float x) {
    if (is_nan(x) || x == __builtin_huge_valf()) return State{canonical_nan(), canonical_nan()};
    if (x == -__builtin_huge_valf()) return identity_state();
    return State{x, 1.0f};
  }
  OSVS_HD static State combine(State a, State b) {
    if (is_nan(a.m) || is_nan(a.d) || is_nan(b.m) || is_nan(b.d))
      return State{canonical_nan(), canonical_nan()};
    const bool a_small = detail::state_less(a, b);
    const State big = a_small ? b : a;
    const State small = a_small ? a : b;
    if (small.m == -__builtin_huge_valf()) return big;
    return State{big.m, mul_add_k(small.d, kexp(small.m - big.m), big.d)};
  }
  /// Pass 2: exp(x - m) / d, and 0 for every element of a fully masked row (d == 0), the
  /// flash-attention convention. NaN rows stay NaN.
  OSVS_HD static float output(float x, State s) { return s.d == 0.0f ? 0.0f : kexp(x - s.m) / s.d; }
};

}  // namespace osvs
