// The error-accounting algebra of the fast kernel: fast_schedule.h's order (kernels) run over
// accounting states, so that the bound follows the kernel's own trees (see error_algebra.h).
//
//   steps 1-2  the chunk's maximum M (exact: fmaxf only)
//   step 3     each value's term fast_term(x, M) (compensated difference: compensated_exp_error),
//              widened exactly; the thread's pairwise tree of binary64 sums
//   step 4     the chunk's trees of binary64 sums, then the sum rounded once: (M, D, err)
//   step 5     (rows of several parts: cluster blocks, split chunks) the compensated merges
//              (fast_merge): AccMerge below; the row's d = fl(s.d + lo): one rounding
//              (AccMerge's finish)
//   step 6     the outputs e * fl(fast_term(m_c, m) / d): bounds.cpp (fast_output_ulps), from
//              each part's maximum m_c (part_max) and the row's accounting state
#pragma once

#include "error_algebra.h"
#include "osvs/kernels/fast_schedule.h"

namespace osvs::oracle::detail {

/// The accounting of the binary64 sums (fast_schedule.h, steps 3-4), in AccSum: D = the exact sum
/// of the e^(x - M) a partial sum stands for, |S - D| <= err. With u64 = 2^-53, a binary64 sum
/// S = fl64(S_a + S_b) of nonnegative sums is within u64 |S_a + S_b| <= u64 (D + err_a + err_b)
/// of S_a + S_b (every partial sum is a normal binary64: the terms are binary32 values, the
/// smallest 2^-149, and widen exactly):
///   err = err_a + err_b + u64 (D_a + D_b + err_a + err_b).
/// The chunk's sum enters the merges as s.d = fl32(S) and lo = fl32(S - s.d) (FastAccAlg's
/// chunk_state); the row's d is rounded once at the end (AccMergeAlg::finish).
struct DoubleSumAccAlg {
  using value_type = AccSum;
  static constexpr double kU64 = 0x1p-53;
  float m;  ///< the chunk's maximum
  double exp_ulp;

  AccSum initial() const { return {}; }
  AccSum lift(float x) const {  // fast_term(x, M); fast_term(-inf, M) = 0 exactly
    return exp_term<compensated_exp_error>(x, m, exp_ulp);
  }
  AccSum combine(const AccSum& a, const AccSum& b) const {
    return add_sums(a, b, [](double D, const AccSum& x, const AccSum& y) {
      return x.err + y.err + kU64 * (D + x.err + y.err);  // one binary64 rounding
    });
  }
};

/// A merge state of fast_schedule.h (FastMergeState) in the accounting: D = the exact sum of the
/// e^(x - m) it stands for, |(s.d + lo) - D| <= err, |lo| <= lomax; zero: the identity exactly.
struct AccMerge {
  float m = -INFINITY;
  double D = 0;
  double err = 0;
  double lomax = 0;
  bool zero = true;
};

/// The accounting of fast_merge, u = 2^-24, every quantity >= 0. Per side X (small or big) the
/// kernel forms X.d e_X and X.lo e_X with the same e_X (e = 1 exactly for the side that keeps the
/// maximum, fexp(fl(small.m - big.m)) for the other: exp_error's rel and abs, rescale in
/// error_algebra.h without its product rounding):
///
///   (X.d + X.lo) e_X - D_X e^g = (v_X - D_X) e_X + D_X (e_X - e^g)  <=  before_X
///
/// s.d = fl(small.d e + big.d), an fma or a product then a sum. With P the bound on
/// small.d e + big.d (|X.d| <= D_X + err_X + lomax_X) and err_true = (small.d e + big.d) - s.d:
///
///   |err_true| <= 2 u P (1 + u) + 2^-150          (2^-150: a product below the normal range)
///   |err_c - err_true| <= 16 u^2 P + 2^-150      (fma_error, rounded_ops.h: two roundings of
///                                                 quantities below 6 u P; its product rest u2
///                                                 is exact unless a b is subnormal)
///   t = fma(small.lo, e, big.lo)                  |t - (small.lo e + big.lo)| <= u |t| + 2^-150
///   |t| <= (small.lomax e_max + big.lomax)(1 + u) + 2^-150
///   lo = fl(t + err_c)                            a sum: exact if subnormal, else u |lo|
///   |lo| <= (|t| + |err_c|)(1 + u) = lomax
///
/// so s.d + lo = (small.d + small.lo) e + (big.d + big.lo) + (err_c - err_true) + r_t + r_lo and
///
///   err = before_small + before_big + (16 u^2 P + 2^-150) + (u |t| + 2^-150) + u lomax.
///
/// The row's d = fl(s.d + lo): |fl(s.d + lo) - D| <= err + u (D + err) (finish; D >= 1, normal).
struct AccMergeAlg {
  double exp_ulp;

  struct Side {
    double T = 0, before = 0, e_max = 0, d_max = 0, lomax = 0;
  };
  Side side(const AccMerge& s, float m) const {
    if (s.zero) return {};
    const double d_max = s.D + s.err + s.lomax;
    if (s.m == m) return {s.D, s.err, 1.0, d_max, s.lomax};              // e = fexp(0) = 1 exactly
    const double g = static_cast<double>(s.m) - static_cast<double>(m);  // < 0
    const ExpError x = exp_error(g, exp_ulp);
    const double eg = exact_scale(g);
    const double e_max = eg * (1 + x.rel) + x.abs;
    return {s.D * eg, s.err * e_max + s.D * (eg * x.rel + x.abs), e_max, d_max, s.lomax};
  }
  AccMerge combine(const AccMerge& a, const AccMerge& b) const {
    const float m = fmax_k(a.m, b.m);  // exact; the big side has this m
    if (a.zero && b.zero) return {m, 0, 0, 0, true};
    const Side x = side(a, m), y = side(b, m);
    const double P = x.d_max * x.e_max + y.d_max * y.e_max;
    const double rest = 16 * kU * kU * P + kSubnormalHalfUlp;               // |err_c - err_true|
    const double err_c = 2 * kU * P * (1 + kU) + kSubnormalHalfUlp + rest;  // a b may be subnormal
    const double t = (x.lomax * x.e_max + y.lomax * y.e_max) * (1 + kU) + kSubnormalHalfUlp;
    const double lomax = (t + err_c) * (1 + kU);
    return {m, x.T + y.T, x.before + y.before + rest + kU * t + kSubnormalHalfUlp + kU * lomax,
            lomax, false};
  }
  static AccState finish(const AccMerge& v) {
    if (v.zero) return {v.m, 0, 0, true};
    return {v.m, v.D, v.err + kU * (v.D + v.err), false};
  }
};

struct FastAccAlg {
  using value_type = AccMerge;
  using sum_type = AccSum;
  double exp_ulp;

  AccMerge initial() const { return {}; }
  AccMerge combine(const AccMerge& a, const AccMerge& b) const {
    return AccMergeAlg{exp_ulp}.combine(a, b);
  }
  DoubleSumAccAlg sum_alg(float M) const { return {M, exp_ulp}; }
  AccSum thread_sum(const float* v, int count, float M) const {
    return with_thread_values(count, [&](auto V) { return thread<decltype(V)::value>(v, M); });
  }
  /// The chunk's merge state (fast_merge_state): s.d = fl32(S), rest = S - s.d exactly,
  /// |rest| <= u |S|, lo = fl32(rest) within u |rest| (or 2^-150 below the normal range) of it,
  /// so s.d + lo is within u^2 (D + err) + 2^-150 of S and |lo| <= u (1 + u) (D + err).
  /// M = -inf: only masked values, the identity exactly (bounds are for finite rows: no +inf).
  AccMerge chunk_state(float M, const AccSum& p) const {
    if (M == -INFINITY || p.zero) return {};
    const double S = p.D + p.err;
    return {M, p.D, p.err + kU * kU * S + kSubnormalHalfUlp, kU * (1 + kU) * S, false};
  }
  /// The row state (step 6's d).
  AccState finish(const AccMerge& v) const { return AccMergeAlg::finish(v); }
  /// A chunk state's maximum (step 6's m_c; -inf for a part of masked values).
  float part_max(const AccMerge& v) const { return v.m; }

 private:
  template <int V>
  AccSum thread(const float* v, float M) const {
    if (M == -INFINITY) return {};
    const DoubleSumAccAlg sum = sum_alg(M);
    return pairwise_tree<V>(
        0, [&](int i) { return sum.lift(v[i]); },
        [&](const AccSum& a, const AccSum& b) { return sum.combine(a, b); });
  }
};

/// Longest chain of roundings an element's term goes through in the fast kernel: the thread's
/// tree, the warp and block trees of the sum, and for rows of several parts the merge's (a
/// binary-counter tree over q states has depth <= ceil(log2 q) + 1) and its warp tree, and its
/// block tree where the merge takes the whole block (fast_merge_threads).
inline double fast_path(std::int64_t n) {
  const FastPlan p = fast_plan(n);
  double levels = 5 + 5 + 5;  // log2(32) thread levels at most, warp, block
  if (p.parts() > 1) {
    const int threads = fast_merge_threads(p);
    double depth = 1;
    for (std::int64_t q = fast_merge_per_thread(p.parts(), threads); q > 1; q = (q + 1) / 2)
      ++depth;
    levels += depth + 5 + (threads > kWarpSize ? 5 : 0);
  }
  return levels;
}

}  // namespace osvs::oracle::detail
