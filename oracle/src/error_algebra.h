// Error-accounting algebras: the kernels' own reduction templates (block_schedule.h,
// harness_model.h) run over these instead of floats, so every bound follows the order the kernel
// really uses. A value carries the exact quantity the kernel approximates and a bound on the
// absolute error of the kernel's float value of it.
#pragma once

#include <cfloat>
#include <cmath>

#include "error_terms.h"
#include "osvs/kernels/fp_model.h"

namespace osvs::oracle::detail {

/// An online-softmax state (m, d) under accounting: m is the kernel's own m (fmaxf is exact, so
/// it is the exact maximum of the state's elements), D = sum over the state's elements of
/// e^(x - m), and |d_hat - D| <= err. `zero` marks states whose d_hat contributes exactly 0 to
/// any combine with a finite partner (empty states, -inf elements: d_hat = 0, or e_hat = exp(-inf)
/// = 0 exactly).
struct AccState {
  float m = -INFINITY;
  double D = 0;
  double err = 0;
  bool zero = true;
};

/// One side of a combine rescaled to the result's maximum: T = D e^g exact, |P_hat - T| <= err.
struct Rescaled {
  double T = 0;
  double err = 0;
  bool zero = true;
};

/// The side s of a combine whose result has maximum m (both operators: seed rescales both sides,
/// hardened only the smaller one; a side with s.m == m costs nothing in either).
inline Rescaled rescale(const AccState& s, float m, double exp_ulp,
                        const StepCharges& c = kCharges) {
  if (s.zero) return {};                     // d_hat * e_hat = 0 exactly         err 0
  if (s.m == m) return {s.D, s.err, false};  // kexp(0) = 1, d_hat * 1 exact      err s.err
  const double g = static_cast<double>(s.m) - static_cast<double>(m);  // < 0
  const ExpError x = exp_error(g, exp_ulp, c);
  const double eg = exact_scale(g);
  const double T = s.D * eg;
  const double e_hat_max = eg * (1 + x.rel) + x.abs;  // e_hat <= e^g (1 + rel) + abs
  // d_hat e_hat - D e^g = (d_hat - D) e_hat + D (e_hat - e^g)
  const double before = s.err * e_hat_max + s.D * (eg * x.rel + x.abs);  // running: this
  // product rounding (or contracted into the sum's fma: then 0): u |z| normal, 2^-150 subnormal,
  // |z| <= T + before                                  running: before (1 + u) + u T + 2^-150
  return {T, before * (1 + c.round_rel) + c.round_rel * T + c.round_abs, false};
}

/// One combine of two accounting states (OnlineAccAlg::combine): both sides rescaled to the
/// result's maximum, then one rounded sum.
inline AccState combine_acc(const AccState& a, const AccState& b, double exp_ulp,
                            const StepCharges& c = kCharges) {
  const float m = fmax_k(a.m, b.m);  // exact; the hardened "big" side has this m too
  const Rescaled ra = rescale(a, m, exp_ulp, c), rb = rescale(b, m, exp_ulp, c);
  if (ra.zero) return {m, rb.T, rb.err, rb.zero};  // x + 0 = x exactly
  if (rb.zero) return {m, ra.T, ra.err, false};
  const double D = ra.T + rb.T;
  // sum rounding: u |z|, |z| <= D + ra.err + rb.err (a sum is exact when subnormal)
  return {m, D, rounded_sum_err(D, ra.err, rb.err, c), false};
}

/// The accounting twin of OnlineAlg<Op> for both combine operators.
struct OnlineAccAlg {
  using value_type = AccState;
  bool seed_initial;  ///< seed: (-FLT_MAX, 0); hardened: (-inf, 0). Both contribute exactly 0.
  double exp_ulp;

  AccState initial() const { return {seed_initial ? -FLT_MAX : -INFINITY, 0, 0, true}; }
  AccState lift(float x) const {
    if (x == -INFINITY) return {x, 0, 0, true};  // seed (-inf, 1): e_hat = exp(-inf) = 0 exactly
    return {x, 1, 0, false};                     // (x, 1) exact: D = e^0 = 1
  }
  AccState combine(const AccState& a, const AccState& b) const {
    return combine_acc(a, b, exp_ulp);
  }
};

/// A partial sum of the 3-pass kernel's second pass: D = sum of e^(x - m), |d_hat - D| <= err.
/// The fast kernel's binary64 sums use it too (fast_error_algebra.h).
struct AccSum {
  double D = 0;
  double err = 0;
  bool zero = true;
};

/// The term e^g of a sum whose exp step errs by e: D = e^g, err = e^g rel + abs.
inline AccSum charged_term(double g, const ExpError& e) {
  const double eg = exact_scale(g);
  return {eg, eg * e.rel + e.abs, false};
}

/// The term e^(x - m) of a sum in the accounting: D = e^g, g = x - m (a difference of two floats:
/// exact in binary64), err = e^g rel + abs with (rel, abs) = error_of(g, exp_ulp), the error of
/// the kernel's term (exp_error: a kexp of the rounded difference; compensated_exp_error: the fast
/// kernel's compensated one; see error_terms.h). x = -inf: the term is 0 exactly.
template <ExpError (*error_of)(double g, double exp_ulp)>
AccSum exp_term(float x, float m, double exp_ulp) {
  if (x == -INFINITY) return {};  // exp(-inf) = 0 exactly
  const double g = static_cast<double>(x) - static_cast<double>(m);
  return charged_term(g, error_of(g, exp_ulp));
}

/// a + b in the accounting: a zero side passes the other through (0 + x = x exactly); otherwise
/// D = D_a + D_b, and err = sum_err(D, a, b) bounds the error of the sum with its rounding.
template <class SumErr>
AccSum add_sums(const AccSum& a, const AccSum& b, SumErr sum_err) {
  if (a.zero) return b;
  if (b.zero) return a;
  const double D = a.D + b.D;
  return {D, sum_err(D, a, b), false};
}

/// The accounting twin of SumExpAlg.
struct SumAccAlg {
  using value_type = AccSum;
  float m;  ///< the row maximum (exact: the first pass is fmaxf only)
  double exp_ulp;

  AccSum initial() const { return {}; }
  AccSum lift(float x) const { return exp_term<exp_error>(x, m, exp_ulp); }
  AccSum combine(const AccSum& a, const AccSum& b) const {
    return add_sums(a, b, [](double D, const AccSum& x, const AccSum& y) {
      return rounded_sum_err(D, x.err, y.err);  // one rounding of the sum
    });
  }
};

}  // namespace osvs::oracle::detail
