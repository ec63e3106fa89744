// The error of ONE combine of two arbitrary states, and its verdict against a double reference
// with a rigorous margin (host and device; the undecided ones go to MPFR, mpfr_one_step.h).
//
// The law. For states a = (m1, d1), b = (m2, d2) in the bound's domain (grid_space.h:
// m's finite or -inf, not both -inf; d's finite and >= 0), the exact result is
//   m = max(m1, m2),   T = d1 e^(g1) + d2 e^(g2),   g_i = m_i - m <= 0   (real arithmetic),
// and a combine must return m exactly and a d_hat with |d_hat - T| <= B (or +inf when T may round
// past FLT_MAX, below). The kernels' bounds over a whole reduction (oracle/src/error_algebra.h)
// chain this step; here it is checked alone, on every grid pair, with inputs taken as exact.
//
// The derivation. Every combine osvs knows evaluates, per side i, e_i = kexp(fl(m_i - m)), a
// product d_i * e_i (rounded, or fused into the final sum), and one sum; the seed both sides, the
// hardened one only the smaller side (its larger side has g = 0: e = 1, product d exact). With
// u = 2^-24 and E = the exp's accuracy in ulps (kexp_max_ulp of exp.h: CUDA expf 2, glibc expf 1,
// measured below those on every float input, reports/exp/), per side:
//   g_i = 0          fl(0) = 0, kexp(+-0) = 1 exactly, d_i * 1 exact            X_i = 0, R_i = 0
//   m_i = -inf       fl(-inf - m) = -inf, kexp(-inf) = 0 exactly, d_i * 0 = 0   T_i = 0, no error
//   d_i = 0          0 * e_hat = 0 exactly (e_hat finite)                       T_i = 0, no error
//   otherwise        fl(g_i): |fl(g) - g| <= u |g|, so e^fl(g) = e^g e^(th u |g|), |th| <= 1;
//                    kexp: |e_hat - e^fl(g)| <= 2 E u e^fl(g) + E 2^-149 (normal / subnormal
//                    result; oracle/src/error_terms.h, exp_error, the same step):
//                      |e_hat - e^g| <= e^g rel + abs, rel = expm1(u|g|)(1 + 2Eu) + 2Eu,
//                      abs = E 2^-149;
//                    |g| > 200 (also fl(g) = -inf): e^g, e^fl(g) < 2^-286, rel 0,
//                      abs = E 2^-149 + 2^-286;
//                    exact product d_i e_hat:  |d_i e_hat - T_i| <= X_i = d_i (e^g rel + abs)
//                    its rounding (0 when fused): R_i = u (T_i + X_i) + 2^-150
//   the sum fl(p1 + p2) (or the fma's one rounding): u (T + X + R) + 2^-150, X + R the sides' sum
//   B = (X_1 + R_1 + X_2 + R_2)(1 + u) + u T + 2^-150.
// Nothing here assumes the order of the operands, which product is fused or which side is
// rescaled, so one B covers every combine with at most one exp per side; a combine with another
// exp (exp2f, __expf) is held to kexp's E and shows its excess as counterexamples (or is run with
// the tool's --exp-ulp). Overflow: T >= Omega = 2^128 - 2^103 rounds to +inf; d_hat = +inf is
// within the bound when T + B >= Omega, and a finite d_hat is judged by |d_hat - T| <= B as always.
//
// Evaluating it in double. g = double(m_i) - double(m) is rounded (relative 2^-53) when the two
// floats are far apart; double exp is documented within 1 ulp (glibc manual; CUDA Programming
// Guide, double-precision functions: exp 1 ulp) and measured within 0.51 ulp on every float input
// (reports/exp/). For |g| <= 745 the double T_ref is then within 745 * 2^-53 + 4 * 2^-53 <
// 2^-43 relative of T; below, double exp returns 0 and the side is below 2^128 * 2^-1074 = 2^-946.
// So |T_ref - T| <= M = 2^-40 T_ref + 2^-900 (2^3 times the analysis, like the exp measurement's
// fast path, exhaustive/README.md). B is evaluated from the same doubles and expm1 (1 ulp): every
// term is a sum and product of non-negative doubles, within 2^-42 relative; it is multiplied by
// kBoundSafety = 1 + 2^-38, the error of evaluating it, not a tolerance.
//
// The verdict. err = |d_hat - T_ref| (d_hat is exact in double): err + M <= B holds for sure,
// err - M > B fails for sure, anything between is undecided and goes to the MPFR reference
// (mpfr_one_step.h), which computes T at 320 bits. Undecided cases are a 2^-40 sliver: rare.
#pragma once

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

#include "osvs/exhaustive/grid/grid_space.h"
#include "osvs/kernels/state.h"

namespace osvs::exhaustive::grid {

inline constexpr double kU = 0x1p-24;
inline constexpr double kSubnormalUlp = 0x1p-149;
inline constexpr double kSubnormalHalfUlp = 0x1p-150;
inline constexpr double kFarGap = 200.0;  ///< beyond: e^g < 2^-286, absolute terms only
inline constexpr double kOverflowThreshold = 0x1.ffffffp+127;  ///< Omega: T >= Omega rounds to inf
inline constexpr double kReferenceRelErr = 0x1p-40;            ///< of T_ref (M above)
inline constexpr double kReferenceAbsErr = 0x1p-900;
inline constexpr double kBoundSafety = 1 + 0x1p-38;

/// The exact result in double (T_ref) and the derived bound B of one combine of a and b.
struct OneStep {
  float m;           ///< max(m1, m2), exact
  double reference;  ///< T_ref, within reference_margin() of T
  double bound;      ///< B
};

/// One side's exact contribution T_i and its error terms X_i + R_i.
struct SideTerms {
  double T = 0;
  double err = 0;  ///< X_i + R_i
};

OSVS_HD SideTerms side_terms(State s, float m, double exp_ulp) {
  if (s.m == -__builtin_huge_valf() || s.d == 0.0f) return {};  // exactly 0
  const double d = s.d;
  const double g = static_cast<double>(s.m) - static_cast<double>(m);
  if (g == 0) return {d, 0};  // kexp(0) = 1, d * 1 exact
  const double ag = -g;
  const double eg = ::exp(g);
  const double e2 = 2 * exp_ulp * kU;
  const double rel = ag > kFarGap ? 0.0 : ::expm1(kU * ag) * (1 + e2) + e2;
  const double abs = exp_ulp * kSubnormalUlp + (ag > kFarGap ? 0x1p-286 : 0.0);
  const double T = d * eg;
  const double X = d * (eg * rel + abs);
  const double R = kU * (T + X) + kSubnormalHalfUlp;
  return {T, X + R};
}

/// T_ref and B for a pair in the bound's domain (in_bound_domain).
OSVS_HD OneStep one_step(State a, State b, double exp_ulp) {
  const float m = a.m < b.m ? b.m : a.m;
  const SideTerms s1 = side_terms(a, m, exp_ulp), s2 = side_terms(b, m, exp_ulp);
  const double T = s1.T + s2.T;
  const double B = ((s1.err + s2.err) * (1 + kU) + kU * T + kSubnormalHalfUlp) * kBoundSafety;
  return {m, T, B};
}

/// M: the distance of T_ref from the exact T.
OSVS_HD double reference_margin(double reference) {
  return kReferenceRelErr * reference + kReferenceAbsErr;
}

enum class StepVerdict : unsigned char { Holds, Fails, Undecided };

/// The verdict on a combine's result r against one_step(a, b); *ratio = err / B (0 for a
/// right +inf, +inf for a wrong m or a NaN d).
OSVS_HD StepVerdict judge_step(const OneStep& s, State r, double* ratio) {
  *ratio = __builtin_huge_val();
  if (!(r.m == s.m) || r.d != r.d || r.d < 0.0f) return StepVerdict::Fails;
  const double M = reference_margin(s.reference);
  if (r.d == __builtin_huge_valf()) {
    *ratio = 0;
    if (s.reference - M + s.bound >= kOverflowThreshold) return StepVerdict::Holds;
    if (s.reference + M + s.bound < kOverflowThreshold) return StepVerdict::Fails;
    return StepVerdict::Undecided;
  }
  const double err = ::fabs(static_cast<double>(r.d) - s.reference);
  *ratio = err / s.bound;
  if (err + M <= s.bound) return StepVerdict::Holds;
  if (err - M > s.bound) return StepVerdict::Fails;
  return StepVerdict::Undecided;
}

}  // namespace osvs::exhaustive::grid
