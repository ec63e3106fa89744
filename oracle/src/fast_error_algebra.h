// The error-accounting algebra of the fast kernel: fast_schedule.h's order (kernels) run over
// accounting states, so that the bound follows the kernel's own trees (see error_algebra.h).
//
//   steps 1-2  the chunk's maximum M (exact: fmaxf only)
//   step 3     each value's term fast_term(x, M) (compensated difference: compensated_exp_error)
//              as the pair (t_hat, 0); the thread's pairwise tree of pair_adds
//   step 4     the chunk's trees of pair_adds, then the pair rounded once: (M, D, err)
//   step 5     the hardened combine's accounting, OnlineAccAlg (rescale of the smaller side only)
#pragma once

#include "error_algebra.h"
#include "osvs/kernels/fast_schedule.h"

namespace osvs::oracle::detail {

/// A float pair (s, c) of float_pair.h in the accounting: D = the exact sum of the e^(x - M) it
/// stands for, |(s + c) - D| <= err, and |c| <= cmax.
struct AccPair {
  double D = 0;
  double err = 0;
  double cmax = 0;
  bool zero = true;
};

/// The accounting of pair_add (float_pair.h), with u = 2^-24 and every quantity >= 0:
///   s = fl(a.s + b.s)           |a.s + b.s| <= P := a.D + b.D + a.err + b.err + a.cmax + b.cmax
///                               (|v.s| <= |v.s + v.c| + |v.c| <= v.D + v.err + v.cmax)
///   e = (a.s + b.s) - s         exact (TwoSum), |e| <= u P
///   c' = fl(a.c + b.c)          = a.c + b.c + r1, |r1| <= u (a.cmax + b.cmax)
///   c = fl(c' + e)              = c' + e + r2,    |r2| <= u |c' + e| <= u C0,
///                               C0 := (a.cmax + b.cmax)(1 + u) + u P
///   s + c = (a.s + a.c) + (b.s + b.c) + r1 + r2: err = a.err + b.err + |r1| + |r2|,
///   cmax = C0 (1 + u) (a sum that is exact has no error; the bounds above hold either way).
/// pair_value rounds s + c once: |fl(s + c) - D| <= err + u (D + err).
struct PairSumAccAlg {
  using value_type = AccPair;
  float m;  ///< the chunk's maximum
  double exp_ulp;

  AccPair initial() const { return {}; }
  AccPair lift(float x) const {
    if (x == -INFINITY) return {};  // fast_term(-inf, M) = 0 exactly
    const double g = static_cast<double>(x) - static_cast<double>(m);
    const ExpError e = compensated_exp_error(g, exp_ulp);  // see error_terms.h
    const double eg = exact_scale(g);
    return {eg, eg * e.rel + e.abs, 0, false};
  }
  AccPair combine(const AccPair& a, const AccPair& b) const {
    if (a.zero) return b;  // pair_add with (0, 0): s = b.s exactly, e = 0, c = b.c exactly
    if (b.zero) return a;
    const double P = a.D + b.D + a.err + b.err + a.cmax + b.cmax;
    const double r1 = kU * (a.cmax + b.cmax);
    const double C0 = (a.cmax + b.cmax) * (1 + kU) + kU * P;
    return {a.D + b.D, a.err + b.err + r1 + kU * C0, C0 * (1 + kU), false};
  }
  /// |pair_value - D| (the one rounding of s + c).
  static double rounded_err(const AccPair& p) { return p.err + kU * (p.D + p.err); }
};

struct FastAccAlg {
  using value_type = AccState;
  using sum_type = AccPair;
  double exp_ulp;

  AccState initial() const { return {}; }
  AccState combine(const AccState& a, const AccState& b) const {
    return OnlineAccAlg{false, exp_ulp}.combine(a, b);
  }
  PairSumAccAlg sum_alg(float M) const { return {M, exp_ulp}; }
  AccPair thread_sum(const float* v, int count, float M) const {
    switch (count) {
      case 4:
        return thread<4>(v, M);
      case 8:
        return thread<8>(v, M);
      case 16:
        return thread<16>(v, M);
      default:
        return thread<32>(v, M);
    }
  }
  /// M = -inf: only masked values, the identity exactly (bounds are for finite rows: no +inf).
  AccState chunk_state(float M, const AccPair& p) const {
    if (M == -INFINITY || p.zero) return {};
    return {M, p.D, PairSumAccAlg::rounded_err(p), false};
  }

 private:
  template <int V>
  AccPair thread(const float* v, float M) const {
    if (M == -INFINITY) return {};
    const PairSumAccAlg sum = sum_alg(M);
    return pairwise_tree<V>(
        0, [&](int i) { return sum.lift(v[i]); },
        [&](const AccPair& a, const AccPair& b) { return sum.combine(a, b); });
  }
};

/// Longest chain of roundings an element's term goes through in the fast kernel: the thread's
/// tree, the warp and block trees of the sum, and for split rows the chunk merge's (a
/// binary-counter tree over q states has depth <= ceil(log2 q) + 1) and the second warp and block
/// trees.
inline double fast_path(std::int64_t n) {
  const FastPlan p = fast_plan(n);
  double levels = 5 + 5 + 5;  // log2(32) thread levels at most, warp, block
  if (p.chunks > 1) {
    double depth = 1;
    for (std::int64_t q = fast_merge_per_thread(p.chunks, p.threads); q > 1; q = (q + 1) / 2)
      ++depth;
    levels += depth + 5 + 5;
  }
  return levels;
}

}  // namespace osvs::oracle::detail
