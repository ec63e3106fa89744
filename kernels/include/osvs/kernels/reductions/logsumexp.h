// osvs's logsumexp combine: the state is one float L, the log-sum-exp of the elements it
// stands for (the form attention engines exchange partials in), combined as
//   L(a, b) = hi + log(1 + exp(lo - hi)),  hi = max(a, b), lo = min(a, b),
// with portable_expf / portable_logf (one fma-based exp and log, the same bits on host and
// device: kernels/portable_exp.h, portable_log.h). Identity -inf; lift(x) = x; finalise L.
//
// Conventions (the exact reference's, api/builtin/builtin_reductions.cpp): NaN anywhere -> NaN
// (the canonical NaN); +inf (no NaN) -> +inf, the limit; empty or all -inf -> -inf.
// Claimed: bitwise commutativity (the operands are ordered before any arithmetic, -0 below +0,
// and a NaN result is the canonical NaN) and an exact identity (-inf returns the other operand
// untouched, whatever its bits).
//
// Error bound (absolute, on the finalised L), u = 2^-24, derived below combine() on the lines it
// bounds: every combine adds at most
//   c(H) = u (1.3679 + 2 P_exp + P_log + ln 2 + H) + P_exp 2^-149,   H = |hi|,
// to the larger of its operands' errors (L is 1-Lipschitz in the max norm: dL/da + dL/db = 1,
// both >= 0), so a schedule of depth D (schedule_depth: the most combines from an element to the
// root) ends within D c(H_max) with H_max <= max_j |x_j| + ln n (every partial L lies in
// [max of its elements, that max + ln n]). logsumexp_tolerance() adds the second-order terms
// and the reference's own error.
#pragma once

#include <cstdint>

#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_exp.h"
#include "osvs/kernels/portable_log.h"
#include "osvs/kernels/rounded_ops.h"

namespace osvs {

struct LogsumexpOp {
  struct State {
    float lse;
  };
  OSVS_HD static State identity() { return {-__builtin_huge_valf()}; }
  OSVS_HD static State lift(float x) { return {x}; }
  /// hi first: the larger value; of two equal values (+0 and -0) the one with the sign bit
  /// clear, so that the order of the operands never shows in the result.
  OSVS_HD static bool is_hi(float a, float b) { return a > b || (a == b && !__builtin_signbit(a)); }
  OSVS_HD static State combine(State a, State b) {
    const float inf = __builtin_huge_valf();
    if (a.lse == -inf) return b;  // exact identity, for every b (NaN, -0 and -inf included)
    if (b.lse == -inf) return a;
    if (a.lse != a.lse || b.lse != b.lse) return {canonical_nan()};  // its bits written out
    const float hi = is_hi(a.lse, b.lse) ? a.lse : b.lse;
    const float lo = is_hi(a.lse, b.lse) ? b.lse : a.lse;
    if (hi == inf) return {inf};  // the limit; inf - inf below would be NaN
    // e = lo - hi <= 0: rounded once, |e^ - e| <= u |e| (exact by Sterbenz when lo >= hi / 2).
    const float e = detail::sub_rn(lo, hi);
    // t = exp(e^) in (0, 1]: |t^ - exp(e^)| <= P_exp ulp <= 2 u P_exp exp(e^) (+ P_exp 2^-149
    // when subnormal); exp(e^) = exp(e) (1 + u|e| + O(u^2 e^2)), and exp(e) |e| <= 1/e_Euler =
    // 0.3679, so |t^ - exp(e)| <= u (0.3679 + 2 P_exp) + P_exp 2^-149 (+ 2nd order).
    const float t = portable_expf(e);
    // s = 1 + t^ in [1, 2]: rounded once, |s^ - (1 + t^)| <= u (half an ulp of [1, 2)).
    const float s = detail::add_rn(1.0f, t);
    // r = log(s^) in [0, ln 2]: |r^ - log s^| <= P_log ulp(r) <= P_log u (r < 1); and
    // |log s^ - log(1 + exp(e))| <= |s^ - 1 - exp(e)| (both >= 1, log is 1-Lipschitz there)
    // <= u + u (0.3679 + 2 P_exp) + P_exp 2^-149. So |r^ - r| <= u (1.3679 + 2 P_exp + P_log)
    // + P_exp 2^-149.
    const float r = portable_logf(s);
    // L = hi + r^: rounded once, |L^ - (hi + r^)| <= u |hi + r^| <= u (H + ln 2).
    // Total for this combine: c(H) above.
    return {detail::add_rn(hi, r)};
  }
  OSVS_HD static float finalise(State s) { return s.lse; }
};

/// The absolute tolerance of a finalised logsumexp after a schedule of depth `depth` over n
/// elements whose finite ones satisfy |x| <= max_abs_x: D c(H) with H = max_abs_x + ln n (the
/// derivation above), times (1 + 2^-10) for the second-order terms (each first-order term is
/// multiplied by at most (1 + u)^4 (1 + D c / |.|), and D u <= 2^-12 for the rows osvs draws),
/// plus the reference's error (oracle/reference.h: kReferenceRelErr (1 + |m| + |log d|) <= 2^-48
/// (1 + H + ln n)).
inline double logsumexp_tolerance(int depth, double max_abs_x, std::int64_t n) {
  const double u = 0x1p-24;
  const double ln_n = n > 1 ? __builtin_log(static_cast<double>(n)) : 0.0;
  const double h = max_abs_x + ln_n;
  const double per_combine =
      u * (1.3679 + 2 * PORTABLE_EXP_MAX_ULP + PORTABLE_LOG_MAX_ULP + 0.69314718055994531 + h) +
      PORTABLE_EXP_MAX_ULP * 0x1p-149;
  return depth * per_combine * (1 + 0x1p-10) + 0x1p-48 * (1 + h + ln_n);
}

}  // namespace osvs
