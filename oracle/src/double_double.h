// Double-double arithmetic: a value h + l held as two doubles, with |l| <= u |h| (u = 2^-53),
// for the reference's second rung (double_double_decide.h). Every operation states the bound on its
// error that the rung's analysis uses, derived below from the error-free transformations
// (round to nearest, no overflow, results far above the underflow range: the rung's values are
// above 2^-400, so every error term below stays a normal double or an exact 0).
#pragma once

#include <cmath>

#include "osvs/kernels/rounded_ops.h"

namespace osvs::oracle::detail {

inline constexpr double kDdU = 0x1p-53;  ///< u, the unit roundoff of double

struct DoubleDouble {
  double h = 0, l = 0;
};

/// TwoSum (Knuth): s = fl(a + b) and s + e = a + b exactly.
inline DoubleDouble two_sum(double a, double b) {
  const double s = a + b;
  return {s, two_sum_error(a, b, s)};
}

/// Fast2Sum (Dekker): exact when |a| >= |b| (or a = 0): s + e = a + b, s = fl(a + b).
inline DoubleDouble fast_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

/// TwoProd with an fma: p = fl(a b) and p + e = a b exactly.
inline DoubleDouble two_prod(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

/// a + b. With (sh, sl) = TwoSum(ah, bh) exact, t = fl(al + bl), c = fl(sl + t) and the exact
/// TwoSum(sh, c) as the result:
///   |t - (al + bl)| <= u |al + bl| <= u^2 (|ah| + |bh|)
///   |sl| <= u |sh| <= u (|ah| + |bh|) (1 + u), |t| <= u (|ah| + |bh|) (1 + u), so
///   |c - (sl + t)| <= u |sl + t| <= 2.01 u^2 (|ah| + |bh|)
/// and |result - (a + b)| <= 3.01 u^2 (|ah| + |bh|) <= 3.02 u^2 (|a| + |b|) (|ah| <= |a| / (1 -
/// u)), whatever the signs (an absolute bound; relative 3.02 u^2 for operands of one sign, 3.02 k
/// u^2 when |a| + |b| <= k |a + b|). The result is normalized (|l| <= u |h|).
inline DoubleDouble dd_add(DoubleDouble a, DoubleDouble b) {
  const DoubleDouble s = two_sum(a.h, b.h);
  const double c = s.l + (a.l + b.l);
  return two_sum(s.h, c);
}

/// a b. With (ph, pl) = TwoProd(ah, bh) exact, c = fl(fl(ah bl) + fl(al bh)), t = fl(pl + c),
/// Fast2Sum(ph, t) exact (|t| <= 3.02 u |ph|); with P = |ah bh|:
///   al bl dropped                      <= u^2 P
///   fl(ah bl), fl(al bh)               <= u^2 P each (|ah bl|, |al bh| <= u P)
///   their sum, |.| <= 2.01 u P         <= 2.01 u^2 P
///   t, |pl + c| <= 3.02 u P            <= 3.02 u^2 P
/// total <= 8.03 u^2 P <= 8.05 u^2 |a b| (P <= |a b| / (1 - u)^2): relative error 8.05 u^2.
inline DoubleDouble dd_mul(DoubleDouble a, DoubleDouble b) {
  const DoubleDouble p = two_prod(a.h, b.h);
  const double c = a.h * b.l + a.l * b.h;
  return fast_two_sum(p.h, p.l + c);
}

/// a b for a double b: dd_mul with bl = 0 (its bound holds: relative error 8.05 u^2).
inline DoubleDouble dd_mul(DoubleDouble a, double b) {
  return dd_mul(a, DoubleDouble{b, 0});
}

/// a / b for normalized a, b (|l| <= u |h|), b != 0. With q1 = fl(ah / bh) = (ah / bh)(1 + t),
/// |t| <= u, and (ph, pl) = TwoProd(q1, bh) exact:
///   ah - ph                  exact (Sterbenz: ph is within a factor 1 +- 2.01 u of ah)
///   R = a - q1 b             = (ah - ph) - pl + al - q1 bl, each term <= 2.01 u |ah|; three sums
///                            and the product q1 bl rounded: |r - R| <= 4 (5.1 u) u |ah| = 20.4 u^2
///                            |ah|
///   q2 = fl(r / bh)          |R / bh - R / b| <= 1.01 u |R / b| <= 5.2 u^2 |ah / b|; the rounding
///                            u |q2| <= 5.3 u^2 |ah / bh|
///   a / b = q1 + R / b exactly, so |q1 + q2 - a / b| <= 31 u^2 |ah / bh| <= 32 u^2 |a / b|.
/// Relative error 32 u^2 (results and every error term above 2^-900: no underflow; a caller with
/// smaller values adds an absolute 2^-1060 for them). The result is normalized (Fast2Sum: |q2| <=
/// 5.1 u |q1|).
inline DoubleDouble dd_div(DoubleDouble a, DoubleDouble b) {
  const double q1 = a.h / b.h;
  const DoubleDouble p = two_prod(q1, b.h);
  const double r = (((a.h - p.h) - p.l) + a.l) - q1 * b.l;
  return fast_two_sum(q1, r / b.h);
}

/// -a, exactly.
inline DoubleDouble dd_neg(DoubleDouble a) {
  return {-a.h, -a.l};
}

/// a 2^e, exactly (no underflow or overflow for the rung's values).
inline DoubleDouble dd_ldexp(DoubleDouble a, int e) {
  return {std::ldexp(a.h, e), std::ldexp(a.l, e)};
}

}  // namespace osvs::oracle::detail
