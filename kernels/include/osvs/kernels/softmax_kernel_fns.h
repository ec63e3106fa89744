// SoftmaxKernelFns: a softmax kernel as the executors run it, its device launcher and its CPU
// model. Both are instantiations of one templated order (block_schedule.h, fast_schedule.h) for
// one schedule policy, so the pair is one kernel in two executors. An executor runs any such pair
// over a batch with its own staging and checks (Executor::run_softmax); the built-in kernels of
// KernelKind are three of them, mutation/'s mutants others (softmax_mutants.h).
//
// A kernel's facts live here, beside its code, and nowhere else: the executors, the derived
// bounds (oracle/bounds.h), the validation and the audit read these fields; none of them branches
// on which kernel it runs, so a new kernel is a new entry, not an edit of each of them. A mutant
// runs in place of its original (softmax_mutants.h) and is known by the original's facts, read
// from builtin_softmax_kernel(batch.kernel); its own entry carries its code only.
#pragma once

#include <cstdint>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/softmax_kernel_facts.h"

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

/// A softmax kernel's code beside its facts (softmax_kernel_facts.h): a mutant's entry carries its
/// name and code only (its original's facts are read from builtin_softmax_kernel).
struct SoftmaxKernelFns : SoftmaxKernelFacts {
  /// Enqueues the kernel, no synchronisation; throws std::runtime_error when the launch fails
  /// and InvalidLaunch for a configuration it has no code for. nullptr: no device code (a build
  /// without CUDA).
  void (*launch)(const SoftmaxLaunch& launch) = nullptr;
  /// The CPU model: fills y and the row states (sized by the executor) of a validated batch.
  /// nullptr: the CPU model cannot replay this kernel (it exists only on the device).
  void (*model)(const SoftmaxBatch& batch, SoftmaxResult& result) = nullptr;
};

/// The built-in kernel of `kind`, with the batch's combine and block size (two_pass: the combine's
/// registry entry; three_pass; fast: FastSchedule's).
const SoftmaxKernelFns& builtin_softmax_kernel(KernelKind kind);

}  // namespace osvs
