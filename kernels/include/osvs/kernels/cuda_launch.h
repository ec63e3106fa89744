// Launching the softmax kernels on device memory the caller owns (benchmarks, large audits).
// Only available in builds with CUDA (OSVS_WITH_CUDA); the executor's built-in kernels
// (builtin_softmax_kernel) use the same entry point.
#pragma once

#include <cstdint>

#include "osvs/kernels/cases.h"

namespace osvs::cuda {

/// Enqueues one softmax kernel on `stream` (a cudaStream_t; nullptr = default stream) for a
/// rows x cols row-major matrix at x, writing y and each row's state. No synchronisation; the
/// launch status is checked (throws std::runtime_error). Validate shapes with osvs::validate first.
void launch_softmax(KernelKind kernel, CombineKind combine, int block, const float* x, float* y,
                    State* row_state, std::int64_t rows, std::int64_t cols, void* stream);

}  // namespace osvs::cuda
