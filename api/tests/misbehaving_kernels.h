// Host kernels that break one thing each, for the tests of the runner and the laws: each must be
// caught, by the runner (memory, exceptions) or by the law it breaks.
#pragma once

#include <cmath>
#include <stdexcept>

#include "osvs/osvs.h"

namespace osvs::test {

/// Calls row(x, y, n, m) for each row of the launch, m the row's maximum (NaN ignored).
template <class Row>
void for_each_row(const RowProblem& p, Row row) {
  for (std::int64_t i = 0; i < p.rows; ++i) {
    const float* x = p.x<float>() + i * p.x_stride;
    float m = -INFINITY;
    for (std::int64_t j = 0; j < p.cols; ++j) m = std::fmax(m, x[j]);
    row(x, p.y<float>() + i * p.y_stride, p.cols, m);
  }
}

/// A correct float softmax (max, sum of exp in double, divide), strided.
inline void good_softmax(const RowProblem& p) {
  for_each_row(p, [](const float* x, float* y, std::int64_t n, float m) {
    double s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += std::exp(static_cast<double>(x[j]) - m);
    for (std::int64_t j = 0; j < n; ++j)
      y[j] = static_cast<float>(std::exp(static_cast<double>(x[j]) - m) / s);
  });
}

/// softmax without the max subtraction: exp overflows for x > 88.7.
inline void unsafe_softmax(const RowProblem& p) {
  for_each_row(p, [](const float* x, float* y, std::int64_t n, float) {
    float s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += std::exp(x[j]);
    for (std::int64_t j = 0; j < n; ++j) y[j] = std::exp(x[j]) / s;
  });
}

inline RowKernel host_kernel(const std::string& name, RowKernelFn fn) {
  return RowKernel(name, Where::Host).run(std::move(fn)).accuracy(Accuracy::ulps(1));
}

}  // namespace osvs::test
