// The host kernels of host_softmax.h: the max m, then rest = the sum of exp(x - m) in double over
// every element but one maximal one, then y_j = exp(x_j - m) / (1 + rest) or
// (x_j - m) - log1p(rest). log1p keeps log-softmax accurate where the naive x_j - lse cancels (a
// dominant element whose output is a tiny negative number). A fully masked row gives NaN (0/0)
// like PyTorch; NaN and +inf propagate as NaN through x - m.
#include "host_softmax.h"

#include <cmath>
#include <limits>

namespace example {
namespace {

struct RowSums {
  float max;
  double rest;  ///< sum of exp(x_k - max) over every element but one maximal one
};

RowSums row_sums(const float* x, std::int64_t cols) {
  float m = -std::numeric_limits<float>::infinity();
  bool nan = false;
  for (std::int64_t j = 0; j < cols; ++j) {
    nan = nan || std::isnan(x[j]);
    m = std::fmax(m, x[j]);
  }
  if (nan) return {std::numeric_limits<float>::quiet_NaN(), 0};
  double rest = 0;
  bool skipped_max = false;
  for (std::int64_t j = 0; j < cols; ++j) {
    if (x[j] == m && !skipped_max) {
      skipped_max = true;
      continue;
    }
    rest += std::exp(static_cast<double>(x[j]) - m);
  }
  if (!std::isfinite(m)) rest = std::numeric_limits<double>::quiet_NaN();  // masked or +inf
  return {m, rest};
}

}  // namespace

void host_softmax(const float* x, float* y, std::int64_t rows, std::int64_t cols, std::int64_t ldx,
                  std::int64_t ldy) {
  for (std::int64_t i = 0; i < rows; ++i) {
    const float* xr = x + i * ldx;
    const RowSums r = row_sums(xr, cols);
    for (std::int64_t j = 0; j < cols; ++j)
      y[i * ldy + j] =
          static_cast<float>(std::exp(static_cast<double>(xr[j]) - r.max) / (1 + r.rest));
  }
}

void host_log_softmax(const float* x, float* y, std::int64_t rows, std::int64_t cols,
                      std::int64_t ldx, std::int64_t ldy) {
  for (std::int64_t i = 0; i < rows; ++i) {
    const float* xr = x + i * ldx;
    const RowSums r = row_sums(xr, cols);
    const double log_sum = std::log1p(r.rest);
    for (std::int64_t j = 0; j < cols; ++j)
      y[i * ldy + j] = static_cast<float>((static_cast<double>(xr[j]) - r.max) - log_sum);
  }
}

}  // namespace example
