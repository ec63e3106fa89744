// What the declarations of osvs's tiled attention kernels share (the forward's, tiled_attention.h;
// its fp8 twin's, tiled_attention_fp8.h; the backward's, tiled_attention_backward.h): the
// problems every one of them takes, and a contract derived for each executor.
#pragma once

#include <string>

#include "osvs/osvs.h"

namespace osvs::builtin {

/// A contract derived for each executor: the host's (glibc's libm) and the device's (CUDA's,
/// tiled_attention_math.h).
template <class Contract>
struct ExecutorContracts {
  Contract host;
  Contract device;
  constexpr const Contract& on(Where where) const { return where == Where::Device ? device : host; }
};

/// A tiled kernel named `name` on `where` running `run`, with what the forward and the backward
/// both take: f32, bf16 and f16 inputs, every mask, GQA, the lse in base e and 2 ([heads,
/// tokens]), a softcap, sinks and ALiBi biases.
inline AttentionKernel tiled_attention_family(const std::string& name,
                                              void (*run)(const AttentionProblem&), Where where) {
  return AttentionKernel(name, where)
      .run(run)
      .in_types({DType::F32, DType::BF16, DType::F16})
      .masks({MaskKind::None, MaskKind::Causal, MaskKind::Window})
      .gqa()
      .lse({LseBase::E, LseBase::Two}, AttnLseLayout::HeadsTokens)
      .softcap()
      .sinks()
      .alibi();
}

}  // namespace osvs::builtin
