// Host kernels that break one thing each, for the tests of the runner and the laws: each must be
// caught, by the runner (memory, exceptions) or by the law it breaks.
#pragma once

#include <cmath>
#include <stdexcept>

#include "osvs/osvs.h"

namespace osvs::test {

/// A correct float softmax (max, sum of exp in double, divide), strided.
inline void good_softmax(const RowProblem& p) {
  for (std::int64_t i = 0; i < p.rows; ++i) {
    const float* x = p.x<float>() + i * p.x_stride;
    float* y = p.y<float>() + i * p.y_stride;
    float m = -INFINITY;
    for (std::int64_t j = 0; j < p.cols; ++j) m = std::fmax(m, x[j]);
    double s = 0;
    for (std::int64_t j = 0; j < p.cols; ++j) s += std::exp(static_cast<double>(x[j]) - m);
    for (std::int64_t j = 0; j < p.cols; ++j)
      y[j] = static_cast<float>(std::exp(static_cast<double>(x[j]) - m) / s);
  }
}

/// softmax without the max subtraction: exp overflows for x > 88.7.
inline void unsafe_softmax(const RowProblem& p) {
  for (std::int64_t i = 0; i < p.rows; ++i) {
    const float* x = p.x<float>() + i * p.x_stride;
    float* y = p.y<float>() + i * p.y_stride;
    float s = 0;
    for (std::int64_t j = 0; j < p.cols; ++j) s += std::exp(x[j]);
    for (std::int64_t j = 0; j < p.cols; ++j) y[j] = std::exp(x[j]) / s;
  }
}

inline RowKernel host_kernel(const std::string& name, RowKernelFn fn) {
  return RowKernel(name, Where::Host).run(std::move(fn)).accuracy(Accuracy::ulps(1));
}

}  // namespace osvs::test
