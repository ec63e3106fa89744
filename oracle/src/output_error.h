// The error of one output step y_hat = fl(kexp(fl(x - m)) / d_hat) of the 2-pass and 3-pass
// kernels (bounds.cpp converts it to ulps of y; formal/gappa/ proves it).
#pragma once

#include <cmath>

#include "error_terms.h"

namespace osvs::oracle::detail {

/// |y_hat - y| for y = e^(x - m) / D, y_hat = fl(e_hat / d_hat), |d_hat / D - 1| <= rho:
///   e_hat = kexp(fl(x - m))     |e_hat - N| <= N rel + abs, N = e^(x - m)  (exp_error)
///   q = e_hat / d_hat (exact)   |q - y| <= (y (rel + rho) + abs / D) / (1 - rho) = q_err
///   fl(q)                       + u |q| (normal) or 2^-150 (subnormal):
///                               total = q_err + u (y + q_err) + 2^-150
/// x = -inf: exp(-inf) = 0 = y exactly.
inline double output_error(float x, float m, double D, double rho, double exp_ulp,
                           const StepCharges& c = kCharges) {
  if (x == -INFINITY) return 0;
  const double g = static_cast<double>(x) - static_cast<double>(m);
  const ExpError e = exp_error(g, exp_ulp, c);
  const double y = exact_scale(g) / D;
  const double q_err = (y * (e.rel + rho) + e.abs / D) / (1 - rho);
  return q_err + c.round_rel * (y + q_err) + c.round_abs;
}

}  // namespace osvs::oracle::detail
