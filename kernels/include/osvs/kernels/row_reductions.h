// osvs's reference logsumexp, LayerNorm and RMSNorm (host), one row at a time, as templates over
// a policy of their steps: RowReductionAsWritten below is the kernel registered
// (api/builtin/builtin_row_reductions.cpp); mutation/ derives its mutants from it, each hiding
// one member (mutation/include/osvs/mutation/row_reduction_mutant_policies.h). Each computes in
// binary64 and its caller rounds the result to the output type through binary32, as the
// reference backward kernels do (softmax_backward.h).
//
//   logsumexp   m = max_j x_j, d = sum_j exp(x_j - m) (left to right), lse = m + log d
//   layer_norm  mu = sum_j x_j / n (compensated sum), v = sum_j (x_j - mu)^2 / n,
//               y_i = (x_i - mu) / sqrt(v + eps) w_i + b_i
//   rms_norm    q = sum_j x_j^2 / n, y_i = x_i / sqrt(q + eps) w_i
//
// Error bounds (docs/semantics.md §11 states the contracts; the derivations are here). u = 2^-53,
// gamma_k = k u / (1 - k u). The output step o = fl_o(fl_32(P)) of a binary64 result P adds at
// most (1.5 + 2^-14) ulp_o of the exact value beyond (1 + 2^-7) |P - exact| (softmax_backward.h
// derives it: half an ulp for each of the two roundings, the binary32 one 2^-16 ulp_o or less for
// bf16, none for f32). The inputs are floats: |x| < 2^128, so x^2 and every sum below stay far
// inside binary64's range; products of two floats are exact.
//
// logsumexp (cond = 1: the error is absolute). x_j - m is rounded once, |e^ - e| <= u |e|, and
// C library exp within 1 ulp (glibc's documented figure, as softmax_backward.h uses) gives
// |exp^(e^) - exp(e)| <= 2 u exp(e) + u |e| exp(e) <= u (2 exp(e) + 0.3679) (|e| exp(e) <= 1/e
// for e <= 0), and 2^-1074 more where exp underflows. The max's term is exp(0) = 1 exactly, so
// d >= 1 and d^ = d + delta with |delta| <= gamma_(n-1) d + n u (0.3679 + 2^-1021) + 2 u d
// (first order; the second-order terms are below u^2 n^2 d). log is 1-Lipschitz on [1, inf):
// |log d^ - log d| <= |delta| / min(d, d^) <= (n - 1 + 2) u + 0.368 n u (1 + 2^-40). The C
// library's log within 1 ulp adds 2 u log d^ <= 2 u ln(n) + 2 u^2 n <= 2 u n, and m + log d^
// rounded once u |lse| (inside the output step's 2^-27 ulp_o). So |P - lse| <= 2^-51 + n 2^-51
// (2 u + (1 + 0.37 + 2) u n <= 4 u + 4 u n), and the contract, with cond = 1, is
//   |o - lse| <= (1.5 + 2^-14) ulp_o(lse) + (2^-51 + 2^-51 n) (1 + 2^-7).
// Conventions (the oracle's, oracle/row_reduction_reference.h): NaN anywhere -> NaN; else +inf
// -> +inf; -inf elements contribute 0, a row of them (or none) -> -inf.
//
// layer_norm, cond_i = |w_i| r (|x_i| + a) (1 + |x^_i|) + |b_i|, r = 1 / sqrt(var + eps),
// a = sum_j |x_j| / n, x^_i = (x_i - mu) r (the bound below uses only cond_i >= |w_i| r (|x_i| + a)
// + |b_i|; the factor (1 + |x^_i|) is for binary32 kernels, whose variance errs relatively).
// mu^ by Neumaier's compensated sum then one division: |mu^ - mu| <= 2 u |mu| + 2 u^2 n a
// <= 3 u a (Higham (4.11)). With t_j = x_j - mu^ rounded, sum_j (x_j - mu^)^2 = n var + n
// (mu^ - mu)^2 (the cross term sums to 0), so v^ = (var + (mu^ - mu)^2) (1 + theta_(n+2)):
// relative to var + eps, v^ + eps carries gamma_(n+3) + 9 u^2 a^2 r^2. Since the inputs are
// floats, a r <= 2^26 sqrt(n): a non-constant row has two values at least 2^-25 a apart (floats
// near magnitude a are 2^-24 a apart; below 2^-126, 2^-149 >= 2^-23 a), so n var >= (2^-25 a)^2
// / 2; a constant one has mu^ = mu exactly (n x_j is exact in binary64 for n < 2^29). So the
// squared-mean term is at most 9 u^2 2^52 n < 4.5 u n, and r^ = 1 / sqrt(v^ + eps) carries
// (2.75 n + 4) u relative. y_i = (t_i r^) w_i + b_i with three roundings:
//   |P - y_i| <= |w_i| r (|x_i - mu| (2.75 n + 7) u + 3 u a) + u (|y_i| + |b_i|)
//             <= (2.75 n + 11) u cond_i (1 + 2^-40)   (|x_i - mu| <= |x_i| + a).
// The contract: (1.5 + 2^-14) ulp_o(y_i) + (2^-49 + 2^-51 n) cond_i (11 u (1 + 2^-7) < 2^-49,
// 2.75 u (1 + 2^-7) < 2^-51). A constant row with eps = 0 gives 0 / 0 = NaN, as the oracle does.
//
// mean_var (mean and variance over n - c, c = 0 or 1), cond of the mean a = sum_j |x_j| / n,
// of the variance sigma (sigma + a), sigma^2 the biased variance. The mean is layer_norm's mu^:
// 3 u a <= 2^-51 cond. The variance v^ = (var' + n (mu^ - mu)^2 / (n - c)) (1 + theta_(n+2)),
// var' the exact variance over n - c <= 2 sigma^2: the first part errs by 2 (n + 3) u sigma^2
// <= 2 (n + 3) u cond, the second by 18 u^2 a^2 <= 18 u^2 2^26 sqrt(n) sigma a (the bound on a r
// above, at eps = 0), below 2^-75 sqrt(n) cond. The contract: (1.5 + 2^-14) ulp_o + (2^-50 +
// 2^-51 n) cond (6 u (1 + 2^-7) < 2^-50, 2 u (1 + 2^-7) < 2^-51). n <= c gives 0 / 0 = NaN, as
// the oracle does; an infinite x an infinite (or NaN) mean and a NaN variance.
//
// rms_norm, cond_i = |x_i w_i| r, r = 1 / sqrt(q + eps): q^ = sum of exact squares, n - 1
// additions and a division, gamma_n relative; + eps, sqrt, division: r^ within (n/2 + 3) u; two
// products: |P - y_i| <= (n/2 + 5) u cond_i (1 + 2^-40). The contract: (1.5 + 2^-14) ulp_o(y_i)
// + (2^-50 + 2^-53 n) cond_i. NaN or +-inf in x -> NaN everywhere (no finite mean square).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace osvs {

/// The steps of the reference row reductions, as written.
struct RowReductionAsWritten {
  /// logsumexp: exp(x_j - m), with the row's max m subtracted.
  static constexpr bool subtract_max = true;
  /// logsumexp: a row of -inf (or none) gives -inf, not -inf - (-inf).
  static constexpr bool guard_empty_row = true;
  /// layer_norm: the variance from the deviations sum_j (x_j - mu)^2, not E[x^2] - mu^2.
  static constexpr bool variance_of_deviations = true;
  /// layer_norm: the variance divided by n (biased, as torch's), not n - 1.
  static constexpr bool biased_variance = true;
  /// mean_var: the variance over n - correction, not over n whatever the op asks.
  static constexpr bool ignore_correction = false;
  /// Both norms: 1 / sqrt(v + eps), not 1 / (sqrt(v) + eps).
  static constexpr bool eps_inside_sqrt = true;
  /// layer_norm and rms_norm: the statistics in binary64, not binary32.
  static constexpr bool statistics_in_double = true;
};

namespace detail {

/// Neumaier's compensated sum of x[0..n), or of its squares.
inline double compensated_sum(const float* x, std::int64_t n, bool squares) {
  double s = 0, c = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    const double v = squares ? static_cast<double>(x[j]) * x[j] : static_cast<double>(x[j]);
    const double t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
  }
  return std::isfinite(s) ? s + c : s;  // an infinite sum as IEEE gives it (c is NaN there)
}

/// 1 / sqrt(v + eps) under the policy (both in the statistics' precision).
template <class Policy>
double inverse_scale(double v, float eps) {
  if (!Policy::statistics_in_double) {
    const float vf = static_cast<float>(v);
    return Policy::eps_inside_sqrt ? 1.0f / std::sqrt(vf + eps) : 1.0f / (std::sqrt(vf) + eps);
  }
  return Policy::eps_inside_sqrt ? 1.0 / std::sqrt(v + eps) : 1.0 / (std::sqrt(v) + eps);
}

}  // namespace detail

/// logsumexp of the row (binary64, to be rounded to the output type through binary32).
template <class Policy = RowReductionAsWritten>
double logsumexp_row(const float* x, std::int64_t n) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  double m = -inf;
  bool nan = false;
  for (std::int64_t j = 0; j < n; ++j) {
    nan = nan || std::isnan(x[j]);
    m = std::fmax(m, static_cast<double>(x[j]));
  }
  if (nan) return std::numeric_limits<double>::quiet_NaN();
  if (m == inf) return inf;
  if (Policy::guard_empty_row && m == -inf) return -inf;
  const double shift = Policy::subtract_max ? m : 0.0;
  double d = 0;
  for (std::int64_t j = 0; j < n; ++j) d += std::exp(static_cast<double>(x[j]) - shift);
  // (the mutant without the max: exp(x) in binary32, as a kernel that skips it overflows)
  if (!Policy::subtract_max) return std::log(static_cast<double>(static_cast<float>(d)));
  return m + std::log(d);
}

/// A row's mean and variance (over n - correction), in binary64.
struct RowStatistics {
  double mean;
  double var;
};

/// The statistics under the policy: a compensated mean, the deviations' squares summed
/// (layer_norm's derivation above; mean_var's below).
template <class Policy = RowReductionAsWritten>
RowStatistics row_statistics(const float* x, std::int64_t n, int correction) {
  const auto nd = static_cast<double>(n);
  double mu, v = 0;
  if (Policy::statistics_in_double) {
    mu = detail::compensated_sum(x, n, false) / nd;
  } else {
    float s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += x[j];
    mu = s / static_cast<float>(n);
  }
  if (Policy::variance_of_deviations) {
    for (std::int64_t j = 0; j < n; ++j) {
      const double t = static_cast<double>(x[j]) - mu;
      v += t * t;
    }
    v /= Policy::ignore_correction ? nd : nd - (Policy::biased_variance ? correction : 1);
  } else {  // E[x^2] - mu^2 in binary32, as a one-pass kernel accumulates
    float q = 0;
    for (std::int64_t j = 0; j < n; ++j) q += x[j] * x[j];
    const auto muf = static_cast<float>(mu);
    v = (q / static_cast<float>(n) - muf * muf) * (nd / (nd - correction));
  }
  return {mu, v};
}

/// The layer norm of the row: y[i] in binary64, to be rounded to the output type.
template <class Policy = RowReductionAsWritten>
void layer_norm_row(const float* x, const float* w, const float* b, float eps, std::int64_t n,
                    double* y) {
  const RowStatistics s = row_statistics<Policy>(x, n, 0);
  const double r = detail::inverse_scale<Policy>(s.var, eps);
  for (std::int64_t i = 0; i < n; ++i)
    y[i] = ((static_cast<double>(x[i]) - s.mean) * r) * w[i] + b[i];
}

/// The RMS norm of the row: y[i] in binary64, to be rounded to the output type.
template <class Policy = RowReductionAsWritten>
void rms_norm_row(const float* x, const float* w, float eps, std::int64_t n, double* y) {
  double q = 0;
  for (std::int64_t j = 0; j < n; ++j) q += static_cast<double>(x[j]) * x[j];
  q /= static_cast<double>(n);
  if (q == std::numeric_limits<double>::infinity()) q = std::numeric_limits<double>::quiet_NaN();
  const double r = detail::inverse_scale<Policy>(q, eps);
  for (std::int64_t i = 0; i < n; ++i) y[i] = (static_cast<double>(x[i]) * r) * w[i];
}

}  // namespace osvs
