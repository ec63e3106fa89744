// The online-softmax state of a chunk of a row.
//
// A state (m, d) stands for a multiset S of floats: m = max S and d = sum over x in S of exp(x -
// m). The empty multiset (and one of only -inf values) is the identity (-inf, 0). The seed kernel
// starts from (-FLT_MAX, 0) instead, which behaves as an identity only for states whose m is
// finite; both representations are tested.
#pragma once

#include <cfloat>

#include "osvs/kernels/hd.h"

namespace osvs {

struct State {
  float m;
  float d;
};

/// The true identity of the combine: the state of the empty multiset.
OSVS_HD State identity_state() {
  return State{-__builtin_huge_valf(), 0.0f};
}

/// The seed kernel's initial state: a finite stand-in for the identity.
OSVS_HD State seed_initial_state() {
  return State{-FLT_MAX, 0.0f};
}

/// Bitwise equality of two states (NaN equals NaN of the same bits; -0 differs from +0).
OSVS_HD bool bitwise_equal(State a, State b) {
  return float_bits(a.m) == float_bits(b.m) && float_bits(a.d) == float_bits(b.d);
}

}  // namespace osvs
