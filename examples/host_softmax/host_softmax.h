// A user's host softmax and log-softmax: plain functions on host memory, the kind of reference
// implementation a kernel author keeps next to the GPU kernel. osvs tests them in CI.
#pragma once

#include <cstdint>

namespace example {

/// y = softmax(x) row by row; x and y row-major with row strides ldx, ldy (elements).
void host_softmax(const float* x, float* y, std::int64_t rows, std::int64_t cols, std::int64_t ldx,
                  std::int64_t ldy);

/// y = log_softmax(x), same layout.
void host_log_softmax(const float* x, float* y, std::int64_t rows, std::int64_t cols,
                      std::int64_t ldx, std::int64_t ldy);

}  // namespace example
