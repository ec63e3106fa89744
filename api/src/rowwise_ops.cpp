// The row-wise kind's ops (osvs/api/rowwise_ops.h).
#include "osvs/api/rowwise_ops.h"

#include <cmath>
#include <span>
#include <stdexcept>

#include "osvs/kernels/row_reductions.h"  // row_statistics, cross_entropy_row
#include "osvs/oracle/row_reduction_reference.h"
#include "osvs/oracle/selection_reference.h"
#include "osvs/oracle/softmax_backward_reference.h"

namespace osvs {
namespace {

/// What the condition terms of the reductions read of a row, in binary64: the mean (a
/// compensated sum), the biased variance (the deviations' squares), the mean square and
/// a = sum_j |x_j| / n. Relative errors below (n + 8) 2^-53, which the judge's slack covers.
struct RowMoments {
  double mean, var, mean_square, mean_abs;
};

RowMoments moments(const float* x, std::int64_t n) {
  const RowStatistics s = row_statistics(x, n, 0);  // the reference's: binary64, compensated
  RowMoments m{s.mean, s.var, 0, 0};
  for (std::int64_t j = 0; j < n; ++j) {
    m.mean_square += static_cast<double>(x[j]) * x[j];
    m.mean_abs += std::fabs(static_cast<double>(x[j]));
  }
  m.mean_square /= static_cast<double>(n);
  m.mean_abs /= static_cast<double>(n);
  return m;
}

/// An index as an exact element (index types hold it exactly: rowwise_kernel.h).
oracle::ExactElement index_element(std::int64_t i) {
  const auto v = static_cast<double>(i);
  return {static_cast<float>(v), v, i == 0 ? oracle::kZeroBinade : std::ilogb(v)};
}

/// The cross-entropy row's target (its one element of the target array).
std::int64_t target_of(const RowInputs& in) {
  return static_cast<std::int64_t>(in.at(1)[0]);
}

/// The batch's counted rows (targets not ignore_index).
std::vector<const RowInputs*> counted_rows(const std::vector<RowInputs>& rows,
                                           const RowwiseParams& params) {
  std::vector<const RowInputs*> counted;
  for (const RowInputs& in : rows)
    if (target_of(in) != params.ignore_index) counted.push_back(&in);
  return counted;
}

}  // namespace

std::vector<oracle::ExactElement> rowwise_batch_exact(RowwiseOp op,
                                                      const std::vector<RowInputs>& rows,
                                                      std::int64_t n, const RowwiseParams& params,
                                                      const std::vector<DType>& out_types,
                                                      const RowwiseTraits& traits) {
  if (!reduces_batch(op))
    throw std::invalid_argument(std::string(to_string(op)) + " does not reduce the batch");
  const bool mean = op == RowwiseOp::CrossEntropyMean;
  if (mean && traits.mean_of_none == MeanOfNone::Zero && counted_rows(rows, params).empty())
    return {oracle::ExactElement{0.0f, 0.0, oracle::kZeroBinade}};  // the declared convention
  std::vector<std::span<const float>> x;
  std::vector<std::int64_t> targets;
  for (const RowInputs& in : rows) {
    x.emplace_back(in.at(0), static_cast<std::size_t>(n));
    targets.push_back(target_of(in));
  }
  return {oracle::cross_entropy_batch_reference(
      x, targets, params.ignore_index, params.label_smoothing,
      mean ? oracle::BatchReduction::Mean : oracle::BatchReduction::Sum, out_types.at(0))};
}

double rowwise_batch_condition(RowwiseOp op, const std::vector<RowInputs>& rows, std::int64_t n,
                               const RowwiseParams& params) {
  if (!reduces_batch(op))
    throw std::invalid_argument(std::string(to_string(op)) + " does not reduce the batch");
  const std::vector<const RowInputs*> counted = counted_rows(rows, params);
  double sum = 0;
  for (const RowInputs* in : counted)
    sum += 1 + cross_entropy_row(in->at(0), n, target_of(*in), params.ignore_index,
                                 params.label_smoothing);
  if (op == RowwiseOp::CrossEntropySum) return sum;
  return counted.empty() ? 0.0 : sum / static_cast<double>(counted.size());
}

std::vector<std::vector<oracle::ExactElement>> rowwise_exact(RowwiseOp op, const RowInputs& in,
                                                             std::int64_t n,
                                                             const RowwiseParams& params,
                                                             const std::vector<DType>& out_types,
                                                             const RowwiseTraits& traits) {
  const auto m = static_cast<std::size_t>(n);
  const auto row = [&](std::size_t a) { return std::span<const float>(in.at(a), m); };
  const DType out = out_types.at(0);
  const float eps = params.eps;
  switch (op) {
    case RowwiseOp::SoftmaxBackward:
      return {oracle::softmax_backward_reference(row(0), row(1), out)};
    case RowwiseOp::LogSoftmaxBackward:
      return {oracle::log_softmax_backward_reference(row(0), row(1), out)};
    case RowwiseOp::Logsumexp:
      return {{oracle::logsumexp_reference(row(0), out)}};
    case RowwiseOp::LayerNorm:
      return {oracle::layer_norm_reference(row(0), row(1), row(2), eps, out)};
    case RowwiseOp::RmsNorm:
      return {oracle::rms_norm_reference(row(0), row(1), eps, out,
                                         traits.inf_row == InfRow::Ieee
                                             ? oracle::NormInfinities::Ieee
                                             : oracle::NormInfinities::Nan)};
    case RowwiseOp::MeanVar:
    case RowwiseOp::MeanVarUnbiased: {
      const oracle::MeanVar mv = oracle::mean_var_reference(
          row(0), op == RowwiseOp::MeanVarUnbiased ? 1 : 0, out, out_types.at(1));
      return {{mv.mean}, {mv.var}};
    }
    case RowwiseOp::CrossEntropy:
      return {{oracle::cross_entropy_reference(row(0), target_of(in), params.ignore_index,
                                               params.label_smoothing, out)}};
    case RowwiseOp::Argmax:
      return {{index_element(oracle::top_indices(row(0), 1)[0])}};
    case RowwiseOp::TopK: {
      std::vector<oracle::ExactElement> values, indices;
      for (std::int64_t i : oracle::top_indices(row(0), params.k)) {
        const float v = in.at(0)[i];
        values.push_back({v, v, std::isfinite(v) && v != 0 ? std::ilogb(v) : oracle::kZeroBinade});
        indices.push_back(index_element(i));
      }
      return {values, indices};
    }
    case RowwiseOp::CrossEntropyMean:
    case RowwiseOp::CrossEntropySum:
      throw std::invalid_argument(std::string(to_string(op)) +
                                  " reduces the batch: rowwise_batch_exact");
  }
  throw std::invalid_argument("row-wise op out of range");
}

std::vector<double> rowwise_condition(RowwiseOp op, std::size_t output, const RowInputs& in,
                                      std::int64_t n, const RowwiseParams& params) {
  const float* a = in.at(0);
  const auto size = static_cast<std::size_t>(n);
  const float eps = params.eps;
  if (reduces_batch(op))
    throw std::invalid_argument(std::string(to_string(op)) +
                                " reduces the batch: rowwise_batch_condition");
  if (op == RowwiseOp::Logsumexp) return {1.0};
  if (selects(op))
    return std::vector<double>(output == 0 && op == RowwiseOp::TopK ? params.k : 1, 0.0);
  if (op == RowwiseOp::CrossEntropy) {
    // 1 + sum_j w_j (lse - x_j), every term >= 0: the reference kernel's binary64 loss
    // (row_reductions.h: within (4 n + 5) 2^-53 of it relative to 1 + loss).
    const std::int64_t t = target_of(in);
    if (t == params.ignore_index || t < 0 || t >= n) return {1.0};
    return {1 + cross_entropy_row(a, n, t, params.ignore_index, params.label_smoothing)};
  }
  if (op == RowwiseOp::MeanVar || op == RowwiseOp::MeanVarUnbiased) {
    // The mean's a; the variance's sigma (sigma + a): a variance errs by its own n u sigma^2 and
    // by its mean's error against the deviations, n u a sigma (docs/semantics.md §11.1).
    const RowMoments m = moments(a, n);
    const double sigma = std::sqrt(m.var);
    return {output == 0 ? m.mean_abs : sigma * (sigma + m.mean_abs)};
  }
  if (op == RowwiseOp::LayerNorm || op == RowwiseOp::RmsNorm) {
    const RowMoments m = moments(a, n);
    const bool layer = op == RowwiseOp::LayerNorm;
    const double r = 1 / std::sqrt((layer ? m.var : m.mean_square) + static_cast<double>(eps));
    std::vector<double> cond(size);
    for (std::size_t i = 0; i < size; ++i) {
      const double x = std::fabs(static_cast<double>(a[i])), w = std::fabs(in.at(1)[i]);
      // LayerNorm: (1 + |x^_i|) carries the variance's relative error into y_i = x^_i w_i + b_i.
      const double normalised = std::fabs((static_cast<double>(a[i]) - m.mean) * r);
      cond[i] =
          layer ? w * r * (x + m.mean_abs) * (1 + normalised) + std::fabs(in.at(2)[i]) : x * w * r;
    }
    return cond;
  }
  const float* dy = in.at(1);
  double row = 0;
  for (std::int64_t j = 0; j < n; ++j)
    row += op == RowwiseOp::SoftmaxBackward
               ? std::fabs(static_cast<double>(a[j]) * static_cast<double>(dy[j]))
               : std::fabs(static_cast<double>(dy[j]));
  std::vector<double> cond(size);
  for (std::size_t i = 0; i < size; ++i) {
    const double dyi = std::fabs(static_cast<double>(dy[i]));
    cond[i] = op == RowwiseOp::SoftmaxBackward ? std::fabs(static_cast<double>(a[i])) * (dyi + row)
                                               : dyi + std::exp(static_cast<double>(a[i])) * row;
  }
  return cond;
}

bool reduces_batch(RowwiseOp op) {
  return op == RowwiseOp::CrossEntropyMean || op == RowwiseOp::CrossEntropySum;
}

bool is_backward(RowwiseOp op) {
  return op == RowwiseOp::SoftmaxBackward || op == RowwiseOp::LogSoftmaxBackward;
}

bool reads_target(RowwiseOp op) {
  return op == RowwiseOp::CrossEntropy || reduces_batch(op);
}

bool has_empty_rows(RowwiseOp op) {
  return is_backward(op) || op == RowwiseOp::Logsumexp || reads_target(op);
}

bool is_empty_row(RowwiseOp op, const RowInputs& in, std::int64_t n, const RowwiseParams& params) {
  if (!has_empty_rows(op)) return false;
  if (reads_target(op)) return n > 0 && target_of(in) == params.ignore_index;
  const float masked = masked_input(op);
  for (std::int64_t j = 0; j < n; ++j)
    if (!(in.at(0)[j] == masked)) return false;
  return n > 0;
}

bool selects(RowwiseOp op) {
  return op == RowwiseOp::Argmax || op == RowwiseOp::TopK;
}

bool uses_eps(RowwiseOp op) {
  return op == RowwiseOp::LayerNorm || op == RowwiseOp::RmsNorm;
}

bool shift_invariant(RowwiseOp op) {
  return op == RowwiseOp::Logsumexp || op == RowwiseOp::LayerNorm || op == RowwiseOp::MeanVar ||
         op == RowwiseOp::MeanVarUnbiased || reads_target(op);
}

bool scale_invariant(RowwiseOp op) {
  return op == RowwiseOp::LayerNorm || op == RowwiseOp::RmsNorm || selects(op);
}

bool scale_keeps_outputs(RowwiseOp op) {
  return scale_invariant(op) && op != RowwiseOp::TopK;
}

bool in_forward_range(RowwiseOp op, const RowInputs& in, std::int64_t n) {
  if (op != RowwiseOp::SoftmaxBackward && op != RowwiseOp::LogSoftmaxBackward) return true;
  const bool softmax = op == RowwiseOp::SoftmaxBackward;
  for (std::int64_t j = 0; j < n; ++j) {
    const float v = in.at(0)[j];
    if (std::isnan(v)) continue;
    if (softmax ? !(v >= 0.0f && v <= 1.0f) : !(v <= 0.0f)) return false;
  }
  return true;
}

float masked_input(RowwiseOp op) {
  return op == RowwiseOp::SoftmaxBackward ? 0.0f : -INFINITY;
}

}  // namespace osvs
