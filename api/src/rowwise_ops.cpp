// The row-wise kind's ops (osvs/api/rowwise_ops.h).
#include "osvs/api/rowwise_ops.h"

#include <cmath>
#include <span>
#include <stdexcept>

namespace osvs {

std::vector<std::vector<oracle::ExactElement>> rowwise_exact(RowwiseOp op, const RowInputs& in,
                                                             std::int64_t n,
                                                             const std::vector<DType>& out_types) {
  const auto m = static_cast<std::size_t>(n);
  const std::span<const float> a(in.at(0), m), dy(in.at(1), m);
  if (op == RowwiseOp::SoftmaxBackward)
    return {oracle::softmax_backward_reference(a, dy, out_types.at(0))};
  return {oracle::log_softmax_backward_reference(a, dy, out_types.at(0))};
}

std::vector<double> rowwise_condition(RowwiseOp op, std::size_t, const RowInputs& in,
                                      std::int64_t n) {
  const float* a = in.at(0);
  const float* dy = in.at(1);
  double row = 0;
  for (std::int64_t j = 0; j < n; ++j)
    row += op == RowwiseOp::SoftmaxBackward
               ? std::fabs(static_cast<double>(a[j]) * static_cast<double>(dy[j]))
               : std::fabs(static_cast<double>(dy[j]));
  std::vector<double> cond(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double dyi = std::fabs(static_cast<double>(dy[i]));
    cond[static_cast<std::size_t>(i)] = op == RowwiseOp::SoftmaxBackward
                                            ? std::fabs(static_cast<double>(a[i])) * (dyi + row)
                                            : dyi + std::exp(static_cast<double>(a[i])) * row;
  }
  return cond;
}

bool is_empty_row(RowwiseOp op, const RowInputs& in, std::int64_t n) {
  const float masked = masked_input(op);
  for (std::int64_t j = 0; j < n; ++j)
    if (!(in.at(0)[j] == masked)) return false;
  return n > 0;
}

bool in_forward_range(RowwiseOp op, const RowInputs& in, std::int64_t n) {
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
