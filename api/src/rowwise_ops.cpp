// The row-wise kind's ops (osvs/api/rowwise_ops.h).
#include "osvs/api/rowwise_ops.h"

#include <cmath>
#include <span>
#include <stdexcept>

#include "osvs/kernels/row_reductions.h"  // row_statistics
#include "osvs/oracle/row_reduction_reference.h"
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

}  // namespace

std::vector<std::vector<oracle::ExactElement>> rowwise_exact(RowwiseOp op, const RowInputs& in,
                                                             std::int64_t n, float eps,
                                                             const std::vector<DType>& out_types) {
  const auto m = static_cast<std::size_t>(n);
  const auto row = [&](std::size_t a) { return std::span<const float>(in.at(a), m); };
  const DType out = out_types.at(0);
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
      return {oracle::rms_norm_reference(row(0), row(1), eps, out)};
    case RowwiseOp::MeanVar:
    case RowwiseOp::MeanVarUnbiased: {
      const oracle::MeanVar mv = oracle::mean_var_reference(
          row(0), op == RowwiseOp::MeanVarUnbiased ? 1 : 0, out, out_types.at(1));
      return {{mv.mean}, {mv.var}};
    }
  }
  throw std::invalid_argument("row-wise op out of range");
}

std::vector<double> rowwise_condition(RowwiseOp op, std::size_t output, const RowInputs& in,
                                      std::int64_t n, float eps) {
  const float* a = in.at(0);
  const auto size = static_cast<std::size_t>(n);
  if (op == RowwiseOp::Logsumexp) return {1.0};
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

bool has_empty_rows(RowwiseOp op) {
  return op == RowwiseOp::SoftmaxBackward || op == RowwiseOp::LogSoftmaxBackward ||
         op == RowwiseOp::Logsumexp;
}

bool is_empty_row(RowwiseOp op, const RowInputs& in, std::int64_t n) {
  if (!has_empty_rows(op)) return false;
  const float masked = masked_input(op);
  for (std::int64_t j = 0; j < n; ++j)
    if (!(in.at(0)[j] == masked)) return false;
  return n > 0;
}

bool uses_eps(RowwiseOp op) {
  return op == RowwiseOp::LayerNorm || op == RowwiseOp::RmsNorm;
}

bool shift_invariant(RowwiseOp op) {
  return op == RowwiseOp::Logsumexp || op == RowwiseOp::LayerNorm || op == RowwiseOp::MeanVar ||
         op == RowwiseOp::MeanVarUnbiased;
}

bool scale_invariant(RowwiseOp op) {
  return op == RowwiseOp::LayerNorm || op == RowwiseOp::RmsNorm;
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
