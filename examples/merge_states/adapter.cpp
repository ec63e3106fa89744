// Puts example::merge_attn_states under osvs: the whole adapter. Its host twin is tested in every
// build; the CUDA kernel where nvcc compiles this file (a CUDA build) and a GPU is present.
#include <osvs/osvs.h>

#include "merge_attn_states.h"

using Merge = decltype(&example::merge_attn_states);

static osvs::MergeKernel declare(const char* name, osvs::Where where, Merge merge) {
  return osvs::MergeKernel(name, where)
      .run([merge](const osvs::MergeProblem& p) {
        merge(p.o_out<float>(), p.lse_out, p.o_a<float>(), p.lse_a, p.o_b<float>(), p.lse_b, p.rows,
              1, p.head_dim, p.base == osvs::LseBase::Two, p.stream);
      })
      .lse_bases({osvs::LseBase::E, osvs::LseBase::Two})
      .empty_partial(osvs::EmptyPartial::NegInfLse);
}

OSVS_REGISTER_MERGE_KERNEL(merge_attn_states_host) {
  return declare("example.merge_attn_states.host", osvs::Where::Host,
                 example::merge_attn_states_host);
}
#if defined(__CUDACC__)
OSVS_REGISTER_MERGE_KERNEL(merge_attn_states) {
  return declare("example.merge_attn_states", osvs::Where::Device, example::merge_attn_states);
}
#endif
