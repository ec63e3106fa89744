// Mutants of the state reductions: osvs's logsumexp and Welford / Chan merge
// (api/builtin/builtin_reductions.h) and the (max, argmax) example (examples/max_argmax), each
// with one bug that real code has had, declared as its original is.
#pragma once

#include <cstdint>
#include <vector>

#include "builtin_reductions.h"
#include "max_argmax.h"

namespace osvs::test {

/// logsumexp of two -inf gives NaN: no guard for an empty operand.
struct LseWithoutEmptyGuard : builtin::LogsumexpReduction {
  static State combine(State a, State b) {
    const float hi = a.lse > b.lse ? a.lse : b.lse, lo = a.lse > b.lse ? b.lse : a.lse;
    return {hi + portable_logf(1.0f + portable_expf(lo - hi))};
  }
};

/// log(exp(a) + exp(b)) without the shift by the maximum: overflows past 88.7.
struct LseWithoutShift : builtin::LogsumexpReduction {
  static State combine(State a, State b) {
    if (a.lse == -INFINITY) return b;
    if (b.lse == -INFINITY) return a;
    return {portable_logf(portable_expf(a.lse) + portable_expf(b.lse))};
  }
};

/// Welford's M2 updated with the new mean on both factors: (x - mean_new)^2 instead of
/// (x - mean_old)(x - mean_new), i.e. nb (mb - mean)^2 for a merge.
struct WelfordNewMeanTwice : builtin::WelfordReduction {
  static State combine(State x, State y) {
    if (x.n == 0) return y;
    if (y.n == 0) return x;
    const State a = before(x, y) ? x : y, b = before(x, y) ? y : x;
    const std::int64_t n = a.n + b.n;
    const float mean =
        a.mean + (b.mean - a.mean) * (static_cast<float>(b.n) / static_cast<float>(n));
    const float d = b.mean - mean;
    return {n, mean, a.m2 + b.m2 + static_cast<float>(b.n) * d * d};
  }
};

/// The Chan merge with n in a narrow (8-bit) integer: the count wraps at 256.
struct WelfordNarrowCount : builtin::WelfordReduction {
  static State combine(State x, State y) {
    State s = WelfordOp::combine(x, y);
    s.n = static_cast<std::uint8_t>(s.n);
    return s;
  }
};

/// The variance of one element: M2 / (n - 1) for the population variance (0 / 0 at n = 1).
struct WelfordVarianceOfOne : builtin::WelfordReduction {
  static Result finalise(State s) {
    Result r = WelfordOp::finalise(s);
    r.var = s.m2 / static_cast<float>(s.n - 1);
    return r;
  }
};

/// argmax ties broken by the larger index.
struct ArgmaxLargerIndex : MaxArgmax {
  static State combine(State a, State b) {
    const bool a_nan = a.max != a.max, b_nan = b.max != b.max;
    if (a_nan != b_nan) return a_nan ? a : b;
    if (a_nan || a.max == b.max) return a.index > b.index ? a : b;
    return a.max > b.max ? a : b;
  }
};

/// argmax by a >= b, keeping the left operand on ties: not commutative.
struct ArgmaxLeftOnTies : MaxArgmax {
  static State combine(State a, State b) { return a.max >= b.max || a.max != a.max ? a : b; }
};

}  // namespace osvs::test
