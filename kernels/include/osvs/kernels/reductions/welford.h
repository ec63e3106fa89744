// osvs's Welford / Chan merge: the state (n, mean, M2) of a multiset (its count, its mean and
// the sum of squared deviations from it), merged by Chan, Golub and LeVeque's pairwise update
//   n = na + nb, delta = mb - ma, mean = ma + delta nb / n, M2 = M2a + M2b + delta^2 na nb / n,
// in binary32 with an int64 count. Identity (0, 0, 0); lift(x) = (1, x, 0); finalise
// (n, mean, M2 / n): the population variance, LayerNorm's.
//
// Conventions (the exact reference's, api/builtin/builtin_reductions.cpp): a row with a NaN or an
// infinity has NaN mean and variance (lift maps a non-finite x to NaN fields); the empty row has
// count 0 and NaN mean and variance (0 / 0); one element has variance +0. Every NaN is the
// canonical one (hd.h canonical_nan), never computed, so that the device has the CPU model's bits.
// Claimed: bitwise commutativity (the operands are put in one canonical order by their bits
// before any arithmetic) and an exact identity (n = 0 returns the other operand untouched).
// Domain: |x| <= 2^20 (delta^2 na nb / n stays far below FLT_MAX for n < 2^24).
//
// Error bound (absolute), u = 2^-24, M = max |x|, R = max x - min x, S = M2 exact, D the depth
// of the schedule; derived on the lines of combine() below:
//   mean: E_mean <= D (u (3R + M) + 2^-150)              (each merge adds u (3R + M) + 2^-150)
//   M2:   E_M2 <= D (7u S + n R E_mean + n E_mean^2 + (n / 4 + 1) 2^-150)
//   var = M2 / n: E_var <= E_M2 / n + u var + 2^-150.
// The 2^-150 terms are the standard model's underflow part, fl(x * y) = x y (1 + theta) + eta,
// |eta| <= 2^-150 (half the subnormal ulp; a sum or difference of floats that underflows is
// exact, eta = 0): a product or quotient in the subnormal range has no relative bound. (The
// first version of this derivation left them out; the special values law's pair -0, 2^-149,
// whose mean 2^-150 no float holds, showed it: reports/regressions/row_kernels/osvs.welford/.)
// welford_tolerance() multiplies by (1 + 2^-10) for the second-order terms.
#pragma once

#include <cstdint>

#include "osvs/kernels/hd.h"
#include "osvs/kernels/rounded_ops.h"

namespace osvs {

struct WelfordOp {
  struct State {
    std::int64_t n;
    float mean;
    float m2;
  };
  struct Result {
    std::int64_t count;
    float mean;
    float var;
  };
  OSVS_HD static State identity() { return {0, 0.0f, 0.0f}; }
  OSVS_HD static State lift(float x) {
    const float nan = canonical_nan();
    return x - x == 0.0f ? State{1, x, 0.0f} : State{1, nan, nan};  // non-finite: NaN fields
  }
  /// The canonical order of two states: by count, then by the mean's and M2's bits.
  OSVS_HD static bool before(const State& a, const State& b) {
    if (a.n != b.n) return a.n < b.n;
    const auto ma = __builtin_bit_cast(std::uint32_t, a.mean);
    const auto mb = __builtin_bit_cast(std::uint32_t, b.mean);
    if (ma != mb) return ma < mb;
    return __builtin_bit_cast(std::uint32_t, a.m2) <= __builtin_bit_cast(std::uint32_t, b.m2);
  }
  OSVS_HD static State combine(State x, State y) {
    if (x.n == 0) return y;  // exact identity, for every y
    if (y.n == 0) return x;
    // NaN fields (a non-finite element under either operand) stay the canonical NaN, written
    // out: the GPU's NaN arithmetic gives 0x7fffffff where x86 passes the operand's bits on, so
    // only a NaN never computed has the same bits on the device as in the CPU model.
    if (is_nan(x.mean) || is_nan(y.mean) || is_nan(x.m2) || is_nan(y.m2))
      return {x.n + y.n, canonical_nan(), canonical_nan()};
    const State a = before(x, y) ? x : y;
    const State b = before(x, y) ? y : x;
    const std::int64_t n = a.n + b.n;  // exact
    // na, nb, n < 2^24: converted exactly.
    const float fa = static_cast<float>(a.n), fb = static_cast<float>(b.n);
    const float fn = static_cast<float>(n);
    // delta = mb - ma, |delta| <= R: rounded once (theta1).
    const float delta = detail::sub_rn(b.mean, a.mean);
    // w = nb / n in (0, 1): rounded once (theta2).
    const float w = detail::div_rn(fb, fn);
    // mean = ma + delta w: the product (theta3, and eta3 <= 2^-150 when it underflows) and the
    // sum (theta4) rounded once each. The exact merge of the computed operands is
    // (1 - w) ma + w mb, a convex combination: the operands' errors pass on at most
    // max(E_a, E_b). New error: |delta w| (theta1 + theta2 + theta3) + eta3 + u |mean|
    // <= u (3R + M) + 2^-150 (first order; |delta w| <= R, |mean| <= M).
    const float mean = detail::add_rn(a.mean, detail::mul_rn(delta, w));
    // T = delta^2 (na w): delta's rounding counted twice in delta^2 (2 theta1), w (theta2),
    // na w (theta5), delta^2 (theta6), the product (theta7): |T^ - T| <= 6u T, plus the
    // underflow of delta^2 (eta6, carried by na w <= n / 4) and of the product (eta7):
    // (n / 4 + 1) 2^-150 (na w >= 1/2 never underflows). The operands'
    // mean errors move delta by at most 2 E_mean: T moves by 2 |delta| (na nb / n) 2 E_mean +
    // (na nb / n) 4 E_mean^2 <= n R E_mean + n E_mean^2 (na nb / n <= n / 4).
    const float t = detail::mul_rn(detail::mul_rn(delta, delta), detail::mul_rn(fa, w));
    // M2 = (M2a + M2b) + T: two sums of non-negative terms (theta8, theta9): relative error
    // <= 2u on each term, so this node adds at most 7u S_node (T: 6u + u; the rest 2u) and
    // passes on E_M2a + E_M2b. Over the schedule: sum of S_node over the nodes <= D S (the
    // node's M2 is at most the sum of its elements' squared deviations from the whole mean, and
    // each element lies under at most D nodes); sum of n_node <= D n. Hence E_M2 above.
    const float m2 = detail::add_rn(detail::add_rn(a.m2, b.m2), t);
    return {n, mean, m2};
  }
  OSVS_HD static Result finalise(State s) {
    const float nan = canonical_nan();
    if (s.n == 0) return {0, nan, nan};
    if (is_nan(s.m2)) return {s.n, s.mean, nan};  // the canonical NaN, not one computed
    // var = M2 / n: rounded once, + u var, + 2^-150 when it underflows.
    return {s.n, s.mean, detail::div_rn(s.m2, static_cast<float>(s.n))};
  }
};

/// The absolute tolerances of a finalised Welford (count, mean, var) after a schedule of depth
/// D over n elements with max |x| = m, range r and exact population variance var (derivation
/// above), times (1 + 2^-10) for the second-order terms (products of two or more theta's, each
/// at most (D u)^2 relative, D u <= 2^-12 for the rows osvs draws), plus the reference's error
/// (2^-50 relative: oracle/moments_reference.h).
struct WelfordTolerance {
  double count = 0, mean = 0, var = 0;
};
inline WelfordTolerance welford_tolerance(int depth, std::int64_t n, double m, double r,
                                          double var) {
  const double u = 0x1p-24, d = depth, nn = static_cast<double>(n);
  const double second = 1 + 0x1p-10;
  const double eta = 0x1p-150;
  const double e_mean = d * (u * (3 * r + m) + eta);
  const double s = var * nn;
  const double e_m2 = d * (7 * u * s + nn * r * e_mean + nn * e_mean * e_mean + (nn / 4 + 1) * eta);
  WelfordTolerance t;
  t.mean = e_mean * second + 0x1p-50 * m;
  t.var = n > 0 ? (e_m2 / nn + u * var + eta) * second + 0x1p-50 * var : 0;
  return t;
}

}  // namespace osvs
