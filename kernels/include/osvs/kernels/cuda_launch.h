// Launching the softmax kernels on device memory the caller owns (benchmarks, large audits).
// Only available in builds with CUDA (OSVS_WITH_CUDA); the executor's built-in kernels
// (builtin_softmax_kernel) use the same entry point.
#pragma once

#include <cstdint>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/softmax_kernel_fns.h"

namespace osvs::cuda {

/// The built-in kernels' device launchers (their SoftmaxKernelFns::launch): each enqueues its
/// kernel on l.stream (a cudaStream_t; nullptr = default stream) for a rows x cols row-major
/// matrix at l.x, writing l.y and each row's state. No synchronisation; the launch status is
/// checked (throws std::runtime_error). Validate shapes with osvs::validate first.
void launch_two_pass(const SoftmaxLaunch& l);
void launch_three_pass(const SoftmaxLaunch& l);
void launch_fast(const SoftmaxLaunch& l);

/// Enqueues the built-in kernel `kernel` (its SoftmaxKernelFns::launch) on device memory the
/// caller owns.
inline void launch_softmax(KernelKind kernel, CombineKind combine, int block, const float* x,
                           float* y, State* row_state, std::int64_t rows, std::int64_t cols,
                           void* stream) {
  builtin_softmax_kernel(kernel).launch(
      SoftmaxLaunch{kernel, combine, block, x, y, row_state, rows, cols, stream});
}

}  // namespace osvs::cuda
