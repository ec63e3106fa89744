// osvs's reference softmax and log-softmax backward (host), one row at a time, as templates over
// a policy of their steps: BackwardAsWritten below is the kernel registered
// (api/builtin/builtin_softmax_backward.cpp); mutation/ derives its mutants from it, each hiding
// one member (mutation/include/osvs/mutation/softmax_backward_mutant_policies.h).
//
//   softmax backward      s = sum_j y_j dy_j (binary64, left to right),  dx_i = y_i (dy_i - s)
//   log-softmax backward  S = sum_j dy_j (binary64, left to right),      dx_i = dy_i - exp(z_i) S
// each dx_i computed in binary64 and rounded to the output type through binary32.
//
// Error bound (docs/semantics.md §11 states the contract; the derivation is here). u = 2^-53 is
// binary64's unit roundoff, gamma_k = k u / (1 - k u); u_o = 2^-p the output type's (p = 24, 8,
// 11) and eta_o half its smallest subnormal; ulp_o(x) its ulp at the exact x (subnormal grid
// below its smallest normal). The inputs are floats, so no binary64 operation below underflows
// or overflows: a product y_j dy_j is exact (48 bits, at least 2^-298 when not 0), every sum and
// difference of such values is a non-zero multiple of 2^-298 or 0, and every magnitude is below
// 2^300.
//
// Softmax backward. s^ = sum_j y_j dy_j with n - 1 additions: |s^ - s| <= gamma_(n-1) A,
// A = sum_j |y_j dy_j| (Higham, Accuracy and Stability, (4.4)). t = fl(dy_i - s^),
// P = fl(y_i t): P = y_i (dy_i - s^)(1 + d1)(1 + d2), |d| <= u, so
//   |P - dx_i| <= gamma_2 |dx_i| + (1 + gamma_2) gamma_(n-1) |y_i| A.
// The output o = fl_o(fl_32(P)): |o - P| <= u_o |P| + eta_o + 2^-24 |P| + 2^-150 (the binary32
// step, then the output type's). With |P| <= |dx_i| + |P - dx_i|:
//   |o - dx_i| <= (u_o + 2^-24 + gamma_2') |dx_i| + eta_o + 2^-150
//                 + (1 + u_o + 2^-23)(1 + gamma_2) gamma_(n-1) |y_i| A.
// In ulps of the output type: u_o |x| < ulp_o(x) for every x, eta_o <= ulp_o(x) / 2, and
// 2^-24 |x| + 2^-150 <= 2^(p - 24) ulp_o(x) + 2^-150 <= (2^-16 + 2^-17) ulp_o(x) for p <= 8
// (bf16's smallest ulp is 2^-133), 0 extra for p = 24 (fl_32 is the output rounding itself),
// and gamma_2' |x| < 2^(p - 51) ulp_o(x) <= 2^-27 ulp_o(x). So the first line is below
// (1.5 + 2^-14) ulp_o(dx_i). In the second, (1 + 2^-7)(1 + 2^-51) gamma_(n-1) <= n 2^-52 for
// n <= 2^40, and |y_i| A <= cond_i = |y_i| (|dy_i| + A). The contract:
//   |o - dx_i| <= (1.5 + 2^-14) ulp_o(dx_i) + n 2^-52 cond_i.
//
// Log-softmax backward, for z_i <= 88 (exp(z_i) < 2^128: every log-softmax output is <= 0, and
// no binary64 operation overflows). S^ = sum_j dy_j: |S^ - S| <= gamma_(n-1) B, B = sum_j |dy_j|.
// e^ = exp(z_i) by the C library's binary64 exp, |e^ - e| <= 2 u e (glibc documents exp within
// 1 ulp, and 1 ulp <= 2 u e). P = fl(e^ S^) = e S (1 + ee)(1 + d1) + e (1 + ee)(1 + d1)(S^ - S):
//   |P - e S| <= (3 u + 2 u^2 + ...) e |S| + (1 + 3u) gamma_(n-1) e B <= (n + 2) u' e B
// (|S| <= B; u' = u (1 + 2^-40)). t = fl(dy_i - P): |t - dx_i| <= u |dx_i| + (1 + u)|P - e S|.
// The output rounding as above gives
//   |o - dx_i| <= (1.5 + 2^-14) ulp_o(dx_i) + (1 + 2^-7)(1 + 2u)(n + 2) u' e B
//              <= (1.5 + 2^-14) ulp_o(dx_i) + (2 + n) 2^-52 cond_i,
// cond_i = |dy_i| + exp(z_i) B. Both ops are registered with ulps 1.5 + 2^-14, cond_rel 2^-51 and
// cond_rel_per_element 2^-52 (the larger of the two derivations' terms).
#pragma once

#include <cmath>
#include <cstdint>

namespace osvs {

/// The steps of the reference backward kernels, as written.
struct BackwardAsWritten {
  /// Softmax backward's row term s = sum_j y_j dy_j: exact products summed left to right.
  static double softmax_row_term(const float* y, const float* dy, std::int64_t n) {
    double s = 0;
    for (std::int64_t j = 0; j < n; ++j)
      s += static_cast<double>(y[j]) * static_cast<double>(dy[j]);
    return s;
  }
  /// dx_i = y_i (dy_i - s).
  static double softmax_dx(float y, float dy, double s) {
    return static_cast<double>(y) * (static_cast<double>(dy) - s);
  }
  /// Log-softmax backward's row term S = sum_j dy_j, left to right.
  static double log_softmax_row_term(const float* dy, std::int64_t n) {
    double s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += static_cast<double>(dy[j]);
    return s;
  }
  /// The softmax output the log-softmax output z_i stands for: exp(z_i).
  static double log_softmax_weight(float z) { return std::exp(static_cast<double>(z)); }
  /// dx_i = dy_i - w_i S.
  static double log_softmax_dx(float dy, double weight, double S) {
    return static_cast<double>(dy) - weight * S;
  }
};

/// One row of softmax backward: dx[i] (binary32, to be rounded to the output type).
template <class Policy = BackwardAsWritten>
void softmax_backward_row(const float* y, const float* dy, float* dx, std::int64_t n) {
  const double s = Policy::softmax_row_term(y, dy, n);
  for (std::int64_t i = 0; i < n; ++i)
    dx[i] = static_cast<float>(Policy::softmax_dx(y[i], dy[i], s));
}

/// One row of log-softmax backward: dx[i] (binary32, to be rounded to the output type).
template <class Policy = BackwardAsWritten>
void log_softmax_backward_row(const float* z, const float* dy, float* dx, std::int64_t n) {
  const double S = Policy::log_softmax_row_term(dy, n);
  for (std::int64_t i = 0; i < n; ++i)
    dx[i] = static_cast<float>(Policy::log_softmax_dx(dy[i], Policy::log_softmax_weight(z[i]), S));
}

}  // namespace osvs
