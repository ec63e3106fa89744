// osvs's reference logsumexp, LayerNorm, RMSNorm, mean / variance, cross-entropy, argmax and
// top-k (host), one row at a time, as templates over
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
//   cross_entropy  m and log d as logsumexp's, t_j = (m - x_j) + log d (= lse - x_j, without
//               forming lse), loss = (1 - eps) t_t + (eps / n) sum_j t_j
//   cross_entropy over a batch  each row's loss as above, the counted rows' (target not
//               ignore_index) summed left to right in binary64; the sum, or the mean: the sum
//               over their count c (0 / 0 = NaN where c = 0, torch's convention)
//   argmax, topk   a scan (a partial sort) under the rank order: NaN largest, then by value,
//               ties to the lowest index (oracle/selection_reference.h states the same order)
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
// cross_entropy, cond = 1 + loss = 1 + sum_j w_j t_j (every t_j >= 0). m is exact; m - x_j is
// rounded once (u of it, and m - x_j <= t_j); log d errs by delta <= (3.37 n + 1) u (logsumexp's
// derivation above, without its final addition); t_j^ rounded once more: |t_j^ - t_j| <= 2 u t_j
// + delta. The weights: 1 - eps exact, eps / n rounded, each product rounded, the n non-negative
// products summed left to right (gamma_(n+2) of the sum). With sum_j w_j = 1:
//   |P - loss| <= (n + 5) u loss + (4 n + 4) u <= (4 n + 5) u cond (1 + 2^-40).
// The contract: (1.5 + 2^-14) ulp_o(loss) + (2^-50 + 2^-50 n) cond (5 u (1 + 2^-7) < 2^-50,
// 4 u (1 + 2^-7) < 2^-50). The special rows follow the IEEE evaluation of the same formula: NaN
// from a NaN, from inf - inf (t_j at an x_j = +inf) or -inf - -inf (a row of -inf), +inf from
// t_j = +inf (lse = +inf, or x_j = -inf where its weight is not 0), as the oracle's extended
// reals give (oracle/row_reduction_reference.h); a term of weight 0 is skipped, not 0 inf. A
// target equal to ignore_index gives 0.
//
// cross_entropy over a batch (sum, or mean over c counted rows), cond_B = sum_(counted) cond_i
// (over c for the mean), cond_i = 1 + loss_i, and the contract's n the batch's rows * cols =: N.
// Each counted row's P_i is within (4 n + 5) u cond_i (1 + 2^-40) of loss_i (above); the c - 1
// additions of non-negative binary64 values left to right add gamma_(c-1) sum_i P_i <= (c - 1) u
// sum_i cond_i (1 + 2^-40) (the ignored rows add nothing: the loop skips them); the mean's one
// division u more of the quotient. Divided by c for the mean (or not, for the sum):
//   |P - value| <= (4 n + c + 5) u cond_B (1 + 2^-40),
// and 4 n + c <= 5 N (c <= rows, n >= 1: 5 rows n - 4 n - rows = 4 n (rows - 1) + rows (n - 1)
// >= 0). The contract, as cross_entropy's with N for n: (1.5 + 2^-14) ulp_o(value) + (2^-50 +
// 2^-50 N) cond_B (5 u (1 + 2^-7) < 2^-50). No row counted: the sum's +0, the mean's 0 / 0 =
// NaN, as the oracle gives them. The sum follows the rows' order: the kernel is not batch
// invariant bit for bit (its value is within the contract in any order).
//
// argmax and topk are exact: they compare and copy, and the oracle's order is theirs.
//
// rms_norm, cond_i = |x_i w_i| r, r = 1 / sqrt(q + eps): q^ = sum of exact squares, n - 1
// additions and a division, gamma_n relative; + eps, sqrt, division: r^ within (n/2 + 3) u; two
// products: |P - y_i| <= (n/2 + 5) u cond_i (1 + 2^-40). The contract: (1.5 + 2^-14) ulp_o(y_i)
// + (2^-50 + 2^-53 n) cond_i. NaN or +-inf in x -> NaN everywhere (no finite mean square: the
// inf_row nan convention); a kernel of the ieee convention lets q = inf through: r = 0 and
// y_i = (x_i 0) w_i, +-0 at a finite x_i, NaN at an infinite one.
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
  /// layer_norm and rms_norm: the variance and the mean square divided by n (biased, as
  /// torch's), not n - 1.
  static constexpr bool biased_variance = true;
  /// mean_var: the variance over n - correction, not over n whatever the op asks.
  static constexpr bool ignore_correction = false;
  /// Both norms: 1 / sqrt(v + eps), not 1 / (sqrt(v) + eps).
  static constexpr bool eps_inside_sqrt = true;
  /// layer_norm and rms_norm: the statistics in binary64, not binary32.
  static constexpr bool statistics_in_double = true;
  /// rms_norm: the weight applied after normalising, x_i r w_i, not to x before its mean square
  /// is taken (x_i w_i / sqrt(mean_j (x_j w_j)^2 + eps)).
  static constexpr bool weight_after_normalising = true;
  /// cross_entropy: a target equal to ignore_index gives 0 (else column 0's loss, the target
  /// clamped into the row, as a kernel that never compares it gives).
  static constexpr bool honour_ignore_index = true;
  /// cross_entropy: the label-smoothing term (eps / n) sum_j (lse - x_j) added.
  static constexpr bool smoothing_term = true;
  /// cross_entropy: lse - x_j as (m - x_j) + log d in binary64, not lse rounded to binary32 and
  /// x_j subtracted there (which loses u |lse| where the logits share a large offset).
  static constexpr bool loss_from_log_softmax = true;
  /// cross_entropy_mean: the sum over the counted rows (targets not ignore_index), not over
  /// every row of the batch.
  static constexpr bool mean_over_counted_rows = true;
  /// cross_entropy_mean: no row counted gives 0 / 0 = NaN, not a guarded 0.
  static constexpr bool mean_of_none_nan = true;
  /// rms_norm: an infinite mean square makes every y_i NaN (the inf_row nan convention), not the
  /// IEEE evaluation's r = 0.
  static constexpr bool infinite_mean_square_nan = true;
  /// argmax, topk: NaN ranks above every number (else it is passed over, as x > best does).
  static constexpr bool nan_is_largest = true;
  /// argmax, topk: among equal elements the lowest index first (else the highest).
  static constexpr bool first_of_ties = true;
  /// argmax, topk: +0 and -0 equal, a tie broken by index (else +0 above -0, as a radix select
  /// on the floats' ordered bits ranks them).
  static constexpr bool zeros_equal = true;
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

/// A row's logsumexp as m + log d (binary64): m = max_j x_j, d = sum_j exp(x_j - m); the
/// special rows as m alone (log d = 0): NaN, +inf, or -inf for a row of -inf.
struct LogSumExpParts {
  double m;
  double log_d;
};

template <class Policy = RowReductionAsWritten>
LogSumExpParts logsumexp_parts(const float* x, std::int64_t n) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  double m = -inf;
  bool nan = false;
  for (std::int64_t j = 0; j < n; ++j) {
    nan = nan || std::isnan(x[j]);
    m = std::fmax(m, static_cast<double>(x[j]));
  }
  if (nan) return {std::numeric_limits<double>::quiet_NaN(), 0};
  if (m == inf) return {inf, 0};
  if (Policy::guard_empty_row && m == -inf) return {-inf, 0};
  const double shift = Policy::subtract_max ? m : 0.0;
  double d = 0;
  for (std::int64_t j = 0; j < n; ++j) d += std::exp(static_cast<double>(x[j]) - shift);
  // (the mutant without the max: exp(x) in binary32, as a kernel that skips it overflows)
  if (!Policy::subtract_max) return {0, std::log(static_cast<double>(static_cast<float>(d)))};
  return {m, std::log(d)};
}

/// logsumexp of the row (binary64, to be rounded to the output type through binary32).
template <class Policy = RowReductionAsWritten>
double logsumexp_row(const float* x, std::int64_t n) {
  const LogSumExpParts lse = logsumexp_parts<Policy>(x, n);
  return lse.m + lse.log_d;
}

/// The cross-entropy loss of the row with target `target` (binary64, to be rounded to the output
/// type through binary32).
template <class Policy = RowReductionAsWritten>
double cross_entropy_row(const float* x, std::int64_t n, std::int64_t target,
                         std::int64_t ignore_index, float label_smoothing) {
  if (Policy::honour_ignore_index && target == ignore_index) return 0;
  const std::int64_t t = target < 0 ? 0 : target >= n ? n - 1 : target;
  const LogSumExpParts lse = logsumexp_parts<Policy>(x, n);
  const auto term = [&](std::int64_t j) {  // lse - x_j
    if (!Policy::loss_from_log_softmax)
      return static_cast<double>(static_cast<float>(lse.m + lse.log_d) - x[j]);
    return (lse.m - static_cast<double>(x[j])) + lse.log_d;
  };
  const double eps = Policy::smoothing_term ? label_smoothing : 0.0;
  double loss = eps < 1 ? (1 - eps) * term(t) : 0.0;
  if (eps > 0) {
    const double w = eps / static_cast<double>(n);
    for (std::int64_t j = 0; j < n; ++j) loss += w * term(j);
  }
  return loss;
}

/// The cross-entropy of a batch, accumulated a row at a time (add), then its sum or its mean.
template <class Policy = RowReductionAsWritten>
struct CrossEntropyBatch {
  double sum = 0;            ///< the counted rows' losses, left to right
  std::int64_t counted = 0;  ///< rows whose target is not ignore_index
  std::int64_t rows = 0;     ///< every row

  void add(const float* x, std::int64_t n, std::int64_t target, std::int64_t ignore_index,
           float label_smoothing) {
    ++rows;
    if (Policy::honour_ignore_index && target == ignore_index) return;
    ++counted;
    sum += cross_entropy_row<Policy>(x, n, target, ignore_index, label_smoothing);
  }
  double mean() const {
    const std::int64_t over = Policy::mean_over_counted_rows ? counted : rows;
    if (over == 0 && !Policy::mean_of_none_nan) return 0;
    return sum / static_cast<double>(over);  // 0 / 0 = NaN where no row is counted
  }
};

/// Whether element a ranks above element b under the policy (the rank order above).
template <class Policy = RowReductionAsWritten>
bool ranks_above(const float* x, std::int64_t a, std::int64_t b) {
  const bool na = std::isnan(x[a]), nb = std::isnan(x[b]);
  if (na || nb) {
    if (!Policy::nan_is_largest) return !na && nb;  // a NaN is passed over
    if (na != nb) return na;
  } else if (x[a] != x[b]) {
    return x[a] > x[b];
  } else if (!Policy::zeros_equal && std::signbit(x[a]) != std::signbit(x[b])) {
    return std::signbit(x[b]);  // (the mutant: +0 above -0; equal nonzero values share a sign)
  }
  return Policy::first_of_ties ? a < b : a > b;
}

/// The indices of the row's k largest elements, in rank order (argmax: k = 1).
template <class Policy = RowReductionAsWritten>
void top_k_row(const float* x, std::int64_t n, std::int64_t k, std::int64_t* out) {
  std::int64_t filled = 0;
  for (std::int64_t j = 0; j < n; ++j) {  // insertion into the k kept, in rank order
    std::int64_t at = filled < k ? filled++ : k;
    while (at > 0 && ranks_above<Policy>(x, j, out[at - 1])) {
      if (at < k) out[at] = out[at - 1];
      --at;
    }
    if (at < k) out[at] = j;
  }
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
  // The element whose square is summed: x_j (the mutant: x_j w_j, exact in binary64).
  const auto term = [&](std::int64_t j) {
    return Policy::weight_after_normalising ? static_cast<double>(x[j])
                                            : static_cast<double>(x[j]) * w[j];
  };
  double q = 0;
  for (std::int64_t j = 0; j < n; ++j) q += term(j) * term(j);
  q /= static_cast<double>(Policy::biased_variance ? n : n - 1);
  if (Policy::infinite_mean_square_nan && q == std::numeric_limits<double>::infinity())
    q = std::numeric_limits<double>::quiet_NaN();
  const double r = detail::inverse_scale<Policy>(q, eps);
  for (std::int64_t i = 0; i < n; ++i)
    y[i] = Policy::weight_after_normalising ? (static_cast<double>(x[i]) * r) * w[i] : term(i) * r;
}

}  // namespace osvs
