// e^g in double-double, with a certified relative error of at most kExpGapDdRelErr: e^(x - m)
// for the softmax reference's second rung (double_double_decide.h), and the weights of the
// attention reference's fast path (attention_fast.cpp).
//
// Error analysis (u = 2^-53; L = ln2 / 64 = L1 + L2 + L3 + tail, L1 and L2 of 38 significant bits
// each, L3 a double, |tail| <= 2^-135.5, all from MPFR; T[i] = 2^(i/64) and c_k = 1/k! rounded to
// double-double, relative error <= 1.01 u^2 each). For g = s + t, |s| <= 129 (checked), |t| <= u
// |s| (a normalized double-double; exp_gap_dd's is TwoSum(x, -m), exact):
//   s + t = g              |s| <= 129, |t| <= u |s| <= 2^-45.9
//   k, k = 64 q + i        any integer near s / L (|k| < 2^14); e^g = 2^q T(i) e^(g - k L)
//   k L1, k L2             exact (14 + 38 bits)
//   r = g - k L + dr       A = TwoSum(s, -k L1) and TwoSum(A.h, -k L2) exact; the rest in double:
//                          fl(k L3) 2^-121.5, the tail k 2^-135.5 <= 2^-121.5, fl(t - k L3)
//                          2^-98.9, the low parts' sum 2^-111, its sum with that 2^-98.8:
//                          |dr| <= 2^-97.8 once |r| <= 2^-6 is checked (refused otherwise)
//   e^r                    Taylor to degree 11: remainder <= |r|^12 / 12! * 1.01 <= 2^-100.8;
//                          Horner q_k = c_k + r q_(k+1) with |r q_(k+1)| <= 0.017 c_k: each step
//                          c_k 1.01 u^2, dd_mul 8.05 u^2, dd_add 3.02 * 1.035 u^2, and 0.017 of
//                          the step before: eps <= 4.5 u^2 + 0.017 eps, so eps <= 4.6 u^2
//   T(i) * p               dd_mul 8.05 u^2, T(i) 1.01 u^2; the scaling by 2^q exact
// Relative error <= 2^-97.7 (dr) + 2^-100.8 + (4.6 + 1.01 + 8.05) u^2 + products < 2^-97.
// kExpGapDdRelErr = 2^-96 keeps a factor 2 above that.
#pragma once

#include <mpfr.h>

#include "double_double.h"

namespace osvs::oracle::detail {

/// v rounded to double-double (each part to nearest): relative error <= 1.01 u^2 (scratch: of
/// v's precision, which must hold v - fl(v) exactly).
DoubleDouble to_double_double(mpfr_t v, mpfr_t scratch);

/// Relative error bound of exp_gap_dd.
inline constexpr double kExpGapDdRelErr = 0x1p-96;

/// e^g for a normalized double-double g (|g.l| <= u |g.h|) with |g.h| <= 129, within
/// kExpGapDdRelErr (the analysis above, with s + t = g); false, with nothing written, beyond
/// that range or when the argument reduction leaves |r| > 2^-6 (never expected).
bool exp_dd(DoubleDouble g, DoubleDouble* out);

/// e^(x - m) for finite floats x, m with |double(x) - double(m)| <= 129 (the reference's
/// non-negligible elements); false, with nothing written, for a gap beyond that or when the
/// argument reduction leaves |r| > 2^-6 (never expected).
bool exp_gap_dd(float x, float m, DoubleDouble* out);

}  // namespace osvs::oracle::detail
