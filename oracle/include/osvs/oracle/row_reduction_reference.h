// The exact row reductions logsumexp, layer norm and RMS norm (MPFR), each output the exact real
// of the formula below correctly rounded (to nearest, ties to even, subnormals included, +-inf
// past the type's largest finite value) to the output type `out` (F32, BF16 or F16). Every input
// float is an exact input, eps included (the float 1e-5f is the eps, not 10^-5). `value` is the
// exact real rounded to double, `binade` floor(log2 |exact|) (ExactElement, exact_element.h).
//
// logsumexp(x) = log(sum_j exp(x_j)):
//   n = 0 -> -inf; any NaN -> NaN; else any +inf -> +inf; else -inf entries contribute 0 and a
//   row of -inf only is -inf. Finite: m = max_j x_j, lse = m + log(S), S = sum_j exp(x_j - m)
//   >= 1; lse = m exactly when S = 1 (one finite element), and is irrational otherwise
//   (Lindemann-Weierstrass: row_reduction_reference.cpp). Where m = 0 and lse < 2^-2^30 (every
//   other element below -7.4e8) it may be reported as +0 with binade kZeroBinade: it rounds to
//   +0 in every type and in double, and its binade lies below -2^30.
//
// layer_norm: y_i = (x_i - mu) / sqrt(var + eps) w_i + b_i, mu = sum_j x_j / n,
// var = sum_j (x_j - mu)^2 / n (biased). With A_i = n x_i - sum_j x_j and
// D = n sum_j x_j^2 - (sum_j x_j)^2 + eps n^2 (var + eps = D / n^2), y_i = A_i / sqrt(D) w_i + b_i.
//   Any x NaN or +-inf -> every y_i NaN; eps NaN or -inf -> every y_i NaN; D <= 0 (a constant row
//   with eps = 0: 0 / 0; or a negative eps past the variance: sqrt of a negative) -> every y_i NaN;
//   eps = +inf -> q_i = 0. Where w_i or b_i is not finite, y_i is the IEEE double evaluation of
//   q_i * w_i + b_i with q_i = A_i / sqrt(D) rounded to double (0 * inf = NaN, inf - inf = NaN).
//
// rms_norm: y_i = x_i / sqrt(sum_j x_j^2 / n + eps) w_i = x_i w_i sqrt(n D) / D, D = sum_j x_j^2
// + n eps.
//   Any x NaN, or eps NaN -> every y_i NaN. An x +-inf (no NaN): as `infinities` says:
//   NormInfinities::Nan, every y_i NaN (the row has no finite mean square, as a LayerNorm row has
//   no finite mean); NormInfinities::Ieee, the IEEE double evaluation of (x_i r) w_i with
//   r = 1 / sqrt(sum_j x_j^2 / n + eps) = 1 / sqrt(inf) = +0 (eps > -inf): x_i r = +-0 at a
//   finite x_i (its sign), so y_i = +-0 (the sign of x_i w_i) or NaN where w_i is +-inf or NaN;
//   inf 0 = NaN at an infinite x_i itself (and every y_i NaN where eps = -inf: inf - inf).
//   Else eps +-inf: the same IEEE evaluation (+inf: r = 0, y_i +-0 or NaN; -inf: NaN). D <= 0 ->
//   every y_i NaN (D = 0: 0 * inf). Where w_i is not finite, y_i is the IEEE double of (x_i r) w_i
//   with r = sqrt(n D) / D rounded to double.
//
// cross_entropy(x, t) = sum_j w_j (lse - x_j) = lse - (1 - eps) x_t - (eps / n) sum_j x_j, with
// w_t = (1 - eps) + eps / n, w_j = eps / n (eps: label_smoothing in [0, 1]; torch's
// cross_entropy with reduction 'none'):
//   t = ignore_index -> +0 (whatever the row holds). Otherwise the extended reals' value, a
//   term of weight 0 absent (eps = 0 keeps the target's alone): NaN where a present term is NaN
//   (a NaN x, lse - x_j = inf - inf at an x_j = +inf, -inf - -inf in a row of -inf only), else
//   +inf where one is +inf (lse = +inf, or an x_j = -inf: a masked logit with eps > 0, or the
//   target masked). t outside [0, n) and not ignore_index, n = 0 or n >= 2^24, or eps outside
//   [0, 1]: std::invalid_argument.
//
// cross_entropy over a batch (torch's cross_entropy with reduction 'sum' or 'mean', no class
// weights): rows of one length n, each with its target; C the rows whose target is not
// ignore_index (the counted rows) and loss_i each one's loss above.
//   sum  = sum_(i in C) loss_i;   mean = sum_(i in C) loss_i / |C|.
//   The extended reals' value: NaN where a counted loss is NaN, else +inf where one is +inf (the
//   losses are >= 0: no inf - inf). An ignored row counts for nothing, whatever it holds (NaN
//   included). No row counted (every row ignored, or a batch of no rows): sum +0, mean 0 / 0 =
//   NaN (torch's, since 1.11; a kernel may declare 0 instead: api/rowwise_ops.h). The counted
//   rows' invalid targets, n and eps as above: std::invalid_argument.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "osvs/kernels/dtype.h"
#include "osvs/oracle/exact_element.h"

namespace osvs::oracle {

/// log(sum_j exp(x_j)) of the row, correctly rounded to `out`.
ExactElement logsumexp_reference(std::span<const float> x, DType out);

/// y_i = (x_i - mu) / sqrt(var + eps) * w_i + b_i, mu = sum x / n, var = sum (x - mu)^2 / n
/// (biased), each correctly rounded to `out`.
std::vector<ExactElement> layer_norm_reference(std::span<const float> x, std::span<const float> w,
                                               std::span<const float> b, float eps, DType out);

/// What an RMSNorm row holding +-inf (and no NaN) gives: NaN everywhere, or the IEEE evaluation
/// of the formula (+-0 at the finite elements, NaN at the infinite ones; the header comment).
enum class NormInfinities { Nan, Ieee };

/// y_i = x_i / sqrt(sum_j x_j^2 / n + eps) * w_i, each correctly rounded to `out`.
std::vector<ExactElement> rms_norm_reference(std::span<const float> x, std::span<const float> w,
                                             float eps, DType out,
                                             NormInfinities infinities = NormInfinities::Nan);

/// The cross-entropy loss of the row with target index `target`, correctly rounded to `out`.
ExactElement cross_entropy_reference(std::span<const float> x, std::int64_t target,
                                     std::int64_t ignore_index, float label_smoothing, DType out);

/// How a batch's losses reduce to one value: their sum, or their mean over the counted rows.
enum class BatchReduction { Sum, Mean };

/// The cross-entropy of a batch (rows[i] with target targets[i], every row of one length),
/// reduced to one value correctly rounded to `out`; a mean of no counted row is NaN.
ExactElement cross_entropy_batch_reference(const std::vector<std::span<const float>>& rows,
                                           std::span<const std::int64_t> targets,
                                           std::int64_t ignore_index, float label_smoothing,
                                           BatchReduction reduction, DType out);

/// The mean and the variance of a row, each correctly rounded to `out`.
struct MeanVar {
  ExactElement mean;
  ExactElement var;
};

/// mean = sum_j x_j / n, var = sum_j (x_j - mean)^2 / (n - correction) (correction 0: biased,
/// 1: unbiased, as torch.var_mean's), correctly rounded to mean_out and var_out. NaN anywhere,
/// or n = 0: both NaN. +-inf (no NaN): the mean is the IEEE value of the sum over n (+-inf, NaN
/// for both signs), the variance NaN. n <= correction: the variance NaN (0 / 0).
MeanVar mean_var_reference(std::span<const float> x, int correction, DType mean_out, DType var_out);

}  // namespace osvs::oracle
