// osvs's own merge-states kernel as merge-kernel entries: the declaration shared by the CPU model
// (builtin_host.cpp) and the device kernel (builtin_device.cu), so both declare the same
// conventions (docs/semantics.md §8): every o type, lse in base e or 2, empty partial lse = -inf.
#pragma once

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

}  // namespace osvs::builtin
