// osvs's own merge-states kernel as merge-kernel entries: the declaration shared by the CPU model
// (builtin_host.cpp) and the device kernel (builtin_device.cu), so both declare the same
// conventions (docs/semantics.md §8): every o type, lse in base e or 2, empty partial lse = -inf.
// The CPU model's entry itself is here too, for every program that registers it (osvs's builtin
// entries, the Python module, the cascade law's tests).
#pragma once

#include "osvs/api/merge_host_io.h"
#include "osvs/kernels/attention/merge_model.h"
#include "osvs/osvs.h"

namespace osvs::builtin {

inline MergeKernel declare_merge(Where where) {
  return MergeKernel(where == Where::Host ? "osvs.merge_states.cpu_model" : "osvs.merge_states",
                     where)
      .o_types({DType::F32, DType::BF16, DType::F16})
      .lse_bases({LseBase::E, LseBase::Two})
      .empty_partial(EmptyPartial::NegInfLse)
      .description(where == Where::Host ? "CPU model of osvs's merge-states kernel"
                                        : "osvs's CUDA merge-states kernel");
}

/// The merge-states kernel's CPU model on a launch's buffers.
inline void merge_cpu_model(const MergeProblem& p) {
  store_result(p, merge_states_model(operand_a(p), operand_b(p), p.base));
}

/// osvs.merge_states.cpu_model, declared and runnable.
inline MergeKernel merge_cpu_model_kernel() {
  return declare_merge(Where::Host).run(merge_cpu_model);
}

}  // namespace osvs::builtin
