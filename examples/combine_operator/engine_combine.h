// A user's online-softmax combine, written the way attention engines write theirs: exponentials
// in base 2 with the log2(e) factor folded into the argument (exp2f((m_a - m) * log2e)), the
// larger state kept as is and the smaller one rescaled (one exponential per combine), -inf as the
// empty state with an explicit guard, and one fmaf for the update.
#pragma once

#include <osvs/osvs.h>

#include <cmath>

struct EngineCombine {
  static constexpr const char* kName = "engine_combine";
  static constexpr bool kBitwiseCommutative = true;  // canonical order: larger m first
  static constexpr bool kExactIdentity = true;       // (-inf, 0), guarded
  static constexpr bool kRescalesBothSides = false;  // one exponential per combine
  static constexpr bool kMaskedRowZero = true;       // d == 0 gives 0s
  static constexpr float kLog2e = 1.44269504088896340736f;

  OSVS_HD static osvs::State initial() { return {-INFINITY, 0.0f}; }
  OSVS_HD static osvs::State lift(float x) {
    return x == -INFINITY ? initial() : osvs::State{x, 1};
  }
  // Written over the state type S (osvs::State here) so that osvs's formal suite can prove its
  // laws from this very source, with a symbolic state (formal/README.md): locals are `auto` or S.
  template <class S>
  OSVS_HD static S combine(S a, S b) {
    const bool a_big = a.m > b.m || (a.m == b.m && a.d >= b.d);
    const S big = a_big ? a : b, small = a_big ? b : a;
    if (big.m == -INFINITY) return initial();
    const auto scale = small.m == -INFINITY ? 0.0f : exp2f((small.m - big.m) * kLog2e);
    return {big.m, fmaf(small.d, scale, big.d)};
  }
  OSVS_HD static float output(float x, osvs::State s) {
    return s.d == 0.0f ? 0.0f : exp2f((x - s.m) * kLog2e) / s.d;
  }
};
