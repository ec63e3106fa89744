// SoftmaxKernelFns: a softmax kernel as the executors run it, its device launcher and its CPU
// model. Both are instantiations of one templated order (block_schedule.h, fast_schedule.h) for
// one schedule policy, so the pair is one kernel in two executors. An executor runs any such pair
// over a batch with its own staging and checks (Executor::run_softmax); the built-in kernels of
// KernelKind are three of them, mutation/'s mutants others (softmax_mutants.h).
#pragma once

#include <cstdint>

#include "osvs/kernels/cases.h"

namespace osvs {

/// One launch of a softmax kernel: a batch's configuration and the device memory it reads and
/// writes (rows x cols floats at x and y, row-major; one state a row), enqueued on `stream` (a
/// cudaStream_t; nullptr: the default stream).
struct SoftmaxLaunch {
  KernelKind kernel;
  CombineKind combine;
  int block;
  const float* x;
  float* y;
  State* row_state;
  std::int64_t rows;
  std::int64_t cols;
  void* stream;
};

struct SoftmaxKernelFns {
  /// The kernel's name in messages: "two_pass", "three_pass", "fast" or a mutant's name.
  const char* name;
  /// Enqueues the kernel, no synchronisation; throws std::runtime_error when the launch fails
  /// and InvalidLaunch for a configuration it has no code for. nullptr: no device code (a build
  /// without CUDA).
  void (*launch)(const SoftmaxLaunch& launch);
  /// The CPU model: fills y and the row states (sized by the executor) of a validated batch.
  /// nullptr: the CPU model cannot replay this kernel (it exists only on the device).
  void (*model)(const SoftmaxBatch& batch, SoftmaxResult& result);
};

/// The built-in kernel of `kind`, with the batch's combine and block size (two_pass: the combine's
/// registry entry; three_pass; fast: FastSchedule's).
const SoftmaxKernelFns& builtin_softmax_kernel(KernelKind kind);

}  // namespace osvs
