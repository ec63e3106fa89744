// AttentionExecutor: runs the attention kernels on a case. `cpu` replays the kernels' order on the
// host (src/attention/cpu_attention_executor.cpp), `cuda` launches them
// (src/cuda/attention/cuda_attention_executor.cu). In the portable-exp build both give the same
// bits. Separate from Executor (executor.h), which runs the softmax kernels; both say who they are
// as every executor does (executor_identity.h).
#pragma once

#include <memory>
#include <string>

#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/executor_identity.h"

namespace osvs {

class AttentionExecutor : public ExecutorIdentity {
 public:
  /// The merge-states kernel: row by row, (lse, o) = merge(a, b) (merge_states.h). a and b have
  /// the same rows, head_dim and o_type; the result has them too.
  virtual AttnStates merge_states(const AttnStates& a, const AttnStates& b, LseBase base) = 0;

  /// The split-KV decode kernel on every split of `plan`, then the partials merged along
  /// plan.merges by the merge-states kernel (split_decode.h).
  virtual DecodeResult split_decode(const DecodeProblem& p, const SplitPlan& plan) = 0;
};

/// The CPU model.
std::unique_ptr<AttentionExecutor> make_cpu_attention_executor();

/// The CUDA executor, or nullptr with the reason (no CUDA in the build, no device).
std::unique_ptr<AttentionExecutor> make_cuda_attention_executor(std::string* why_not);

}  // namespace osvs
