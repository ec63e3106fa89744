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

/// The order in which a kernel reduces a row to its state: what its derived bound models
/// (oracle/bounds.h, docs/semantics.md §5).
enum class ReductionOrder {
  OnlineBlock,      ///< one block a row: per-thread stride loop, warp tree, shared-memory stage,
                    ///< (m, d) folded with the batch's combine operator (block_schedule.h)
  MaxThenSumBlock,  ///< the same block order twice: a max with fmaxf, then sum exp(x - m) with +
  FastPlan,         ///< fast_plan.h's chunks held on chip, merged with the hardened combine
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

  /// The order its derived bound models.
  ReductionOrder order = ReductionOrder::OnlineBlock;
  /// Whether it folds with the batch's combine operator. The 3-pass kernel does not: the
  /// combine's laws do not apply to it, and its conventions are its own (the identity state for
  /// N = 0, NaN for a fully masked row), not the operator's.
  bool folds_with_combine = true;
  /// Whether it is its combine operator's own 2-pass kernel, whose indexing the operator decides
  /// (the seed's `row * N` in int: CombineOperator::int32_two_pass_index).
  bool is_combine_two_pass = false;
  /// Whether it merges with the hardened combine only (the fast kernel).
  bool hardened_combine_only = false;
  /// Whether its plan picks its threads (fast_plan.h): the batch's block size is not used, and
  /// one block size suffices to audit it.
  bool plans_own_block = false;
  /// Whether its exp is its own on either executor (the fast kernel's FastKernelExp), so that it
  /// takes no declared exp and its bound uses its own figure.
  bool own_exp = false;
  /// How many times it reads x from memory (the bandwidth model; the fast kernel's launch info
  /// tells its own, 1 or 2).
  int x_passes = 2;
};

/// The built-in kernel of `kind`, with the batch's combine and block size (two_pass: the combine's
/// registry entry; three_pass; fast: FastSchedule's).
const SoftmaxKernelFns& builtin_softmax_kernel(KernelKind kind);

}  // namespace osvs
