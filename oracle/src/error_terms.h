// The error of one exp step of a kernel, the building block of every bound (bounds.cpp).
#pragma once

#include <cmath>

namespace osvs::oracle::detail {

inline constexpr double kU = 0x1p-24;              ///< unit roundoff of binary32
inline constexpr double kSubnormalUlp = 0x1p-149;  ///< ulp of the subnormal float range
inline constexpr double kSubnormalHalfUlp = 0x1p-150;
/// Beyond this gap e^g and everything computed from it are below 2^-286: absolute terms only.
inline constexpr double kFarGap = 200.0;

/// The factor every bound is multiplied by: the error of evaluating it in double along a path of
/// `longest_path` combine steps (bounds.cpp derives it; not a tolerance).
inline double arithmetic_safety(double longest_path) {
  return 1 + 0x1p-40 + longest_path * 0x1p-43;
}

/// What the bounds charge for each elementary float step of the 2-pass and 3-pass kernels: one
/// table, read by their one-step bounds (exp_error and rounded_sum_err below; rescale,
/// combine_acc and charged_term in error_algebra.h; output_error in output_error.h), whose values
/// formal/gappa/ proves against IEEE binary32 arithmetic (formal/README.md). The defaults are the
/// bounds in force; another table exists only to show a proof failing. (The fast kernel's
/// algebra, fast_error_algebra.h, does not read it yet.)
struct StepCharges {
  double round_rel = kU;                   ///< a rounding of a normal result z: u |z|
  double round_abs = kSubnormalHalfUlp;    ///< a product or quotient below the normal range
  double arg_rel = kU;                     ///< fl(a - b) of two floats: u |a - b|
  double exp_rel_per_ulp = 2 * kU;         ///< an ulp of a normal exp result: 2u relative
  double exp_abs_per_ulp = kSubnormalUlp;  ///< an ulp of a subnormal exp result: 2^-149
};
inline constexpr StepCharges kCharges{};

/// The error of a rounded sum of two nonnegative values within err_a and err_b of exact ones
/// summing to D: |z| <= D + err_a + err_b and the rounding adds u |z| (a subnormal sum is exact),
/// so the running error is (err_a + err_b)(1 + u) + u D. An fma a b + c has the same bound for
/// err_a covering a b before its (absent) product rounding.
inline double rounded_sum_err(double D, double err_a, double err_b,
                              const StepCharges& c = kCharges) {
  return (err_a + err_b) * (1 + c.round_rel) + c.round_rel * D;
}

/// |e_hat - e^g| <= rel * e^g + abs, for e_hat = kexp(fl(g)) with g = a - b <= 0 the exact
/// difference of two floats.
struct ExpError {
  double rel = 0;
  double abs = 0;
};

/// The error of kexp(fl(a - b)) against e^g, g = a - b <= 0, for an exp of `exp_ulp` ulps.
///   g == 0          fl(0) = 0 and kexp(+-0) = 1 exactly                     rel 0, abs 0
///   fl(g)           round to nearest: |fl(g) - g| <= u |g|  ->  e^fl(g) = e^g e^(th u|g|)
///                                                               rel e^(u|g|) - 1
///   kexp(fl(g))     exp_ulp ulps: normal result <= 2 exp_ulp u relative, subnormal result
///                   <= exp_ulp 2^-149 absolute               rel e^(u|g|)(1 + 2 E u) - 1
///                                                            abs E 2^-149
///   |g| > kFarGap   e^g and e_hat are both in [0, e^(g(1-u))(1+2Eu) + E 2^-149]:
///                   abs E 2^-149 + 2^-286 (e^(-199) < 2^-286), rel 0
/// (`c` names the charges: the argument's u, the exp's 2u and 2^-149 an ulp.)
inline ExpError exp_error(double g, double exp_ulp, const StepCharges& c) {
  if (g == 0) return {};
  const double a = std::fabs(g);
  if (a > kFarGap) return {0, exp_ulp * c.exp_abs_per_ulp + 0x1p-286};
  const double e2 = exp_ulp * c.exp_rel_per_ulp;
  return {std::expm1(c.arg_rel * a) * (1 + e2) + e2, exp_ulp * c.exp_abs_per_ulp};
}
inline ExpError exp_error(double g, double exp_ulp) {
  return exp_error(g, exp_ulp, kCharges);
}

/// e^g for the bookkeeping of exact values (0 beyond kFarGap, where only absolute terms count).
inline double exact_scale(double g) {
  return std::fabs(g) > kFarGap ? 0.0 : std::exp(g);
}

}  // namespace osvs::oracle::detail

namespace osvs::oracle::detail {

/// The error of compensated_exp_diff(x, m) (kernels/compensated_exp.h) against e^g, g = x - m <= 0
/// the exact difference of two floats, for a kexp of E = exp_ulp ulps:
///   g == 0          t = 0, e = 0, kexp(0) = 1, fma(1, 0, 1) = 1             rel 0, abs 0
///   t = fl(g)       e = g - t exactly (TwoSum), |e| <= ulp(t) / 2 <= u |t| <= u |g| (1 + u) = eps
///   E = kexp(t)     E = e^t (1 + a) + b, |a| <= 2 E u, |b| <= E 2^-149
///   E (1 + e)       = e^g (e^-e (1 + e)) (1 + a) + b (1 + e),  |e^-e (1 + e) - 1| <= e^2 <= eps^2
///   fl(E (1 + e))   one rounding (the fma): u relative (normal) or 2^-150 absolute (subnormal)
///                   rel (1 + eps^2)(1 + 2 E u)(1 + u) - 1,  abs E 2^-149 (1 + eps)(1 + u) + 2^-150
///   |g| > kFarGap   e^g < 2^-286 and the result <= e^(g(1-u))(1 + 2Eu)(1 + eps)(1 + u) + abs:
///                   rel 0, abs as above + 2^-286 (t = -inf, an overflowing difference: E = 0)
inline ExpError compensated_exp_error(double g, double exp_ulp) {
  if (g == 0) return {};
  const double eps = kU * std::fabs(g) * (1 + kU);
  const double abs = exp_ulp * kSubnormalUlp * (1 + eps) * (1 + kU) + kSubnormalHalfUlp;
  if (std::fabs(g) > kFarGap) return {0, abs + 0x1p-286};
  return {(1 + eps * eps) * (1 + 2 * exp_ulp * kU) * (1 + kU) - 1, abs};
}

}  // namespace osvs::oracle::detail
