// Executor: runs the kernels under test on batches of cases.
//
// Two implementations with one contract: `cuda` launches the real kernels on a GPU; `cpu` replays
// each kernel's exact reduction order on the host (block_schedule.h). With OSVS_PORTABLE_EXP the
// two agree bit for bit; otherwise they differ only through their exp and are judged by bounds.
//
// A softmax kernel is a pair of functions, its device launcher and its CPU model
// (softmax_kernel_fns.h): an executor runs any such pair with its own staging and checks
// (run_softmax), and softmax(batch) is that applied to the kernel the executor runs for the batch
// (softmax_kernel: the built-in kernel of batch.kernel; a mutant in a mutant_executor).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/dtype.h"
#include "osvs/kernels/executor_identity.h"
#include "osvs/kernels/softmax_kernel_fns.h"
#include "osvs/kernels/validate.h"

namespace osvs {

class Executor : public ExecutorIdentity {
 public:
  /// Runs `kernel` over every row of the batch with this executor's staging and checks: the CPU
  /// model calls kernel.model; the CUDA executor uploads x, enqueues kernel.launch on its stream
  /// with the batch's configuration, checks the launch and downloads y and the row states. Throws
  /// InvalidLaunch for a bad batch and for a kernel this executor cannot run (one without a CPU
  /// model on the CPU model, one without device code on a GPU).
  virtual SoftmaxResult run_softmax(const SoftmaxKernelFns& kernel, const SoftmaxBatch& batch) = 0;
  /// The kernel softmax(batch) runs: the built-in kernel of batch.kernel (an executor that runs
  /// another kernel in its place, mutant_executor, says so here; throws InvalidLaunch for a batch
  /// it cannot run).
  virtual const SoftmaxKernelFns& softmax_kernel(const SoftmaxBatch& batch) const {
    return builtin_softmax_kernel(batch.kernel);
  }
  /// Runs the batch's softmax kernel over every row: run_softmax(softmax_kernel(batch), batch).
  /// Throws InvalidLaunch for bad batches.
  SoftmaxResult softmax(const SoftmaxBatch& batch) {
    return run_softmax(softmax_kernel(batch), batch);
  }
  /// out[i] = a[i] (+) b[i] with the given operator.
  virtual std::vector<State> combine_pairs(CombineKind op, const std::vector<State>& a,
                                           const std::vector<State>& b) = 0;
  /// out[i] = a[i] (+) b[i] with the states stored in `type` and the operator's arithmetic
  /// rounded to it (narrow_float.h): F32 is combine_pairs; BF16 and F16 take states whose fields
  /// are values of that type (as floats) and give such states. Throws InvalidLaunch for another
  /// type, a field that is no value of the type, or an operator that runs on float states only
  /// (validate_narrow_pairs). This default runs F32 alone; the CPU model and the CUDA executor
  /// run the narrow types too.
  virtual std::vector<State> combine_pairs_in(DType type, CombineKind op,
                                              const std::vector<State>& a,
                                              const std::vector<State>& b);
  /// For each group of 32 states: lane 0's result of the warp's __shfl_down_sync tree.
  virtual std::vector<State> warp_reduce(CombineKind op, const std::vector<State>& lanes) = 0;
  /// Chunk states by sequential lift, then merges in exactly the given order.
  virtual HarnessResult run_harness(const HarnessBatch& batch) = 0;
};

/// The CPU model; always available.
std::unique_ptr<Executor> make_cpu_executor();

/// The CUDA executor of device `device` (every call it makes runs there, from whichever thread),
/// or nullptr with *why_not set when that device is not present (or the build has no CUDA).
/// Never throws for a missing device.
std::unique_ptr<Executor> make_cuda_executor(std::string* why_not, int device = 0);

/// CUDA devices visible to this process (0 in a build without CUDA or without a device).
int cuda_device_count();

/// "cpu", "cuda", or "best" (cuda when present, else cpu). nullptr with *why_not on failure.
std::unique_ptr<Executor> make_executor(const std::string& name, std::string* why_not);

}  // namespace osvs
