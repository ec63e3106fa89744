// Host merge kernels that break one thing each, for the tests of the testbed's merge half.
#pragma once

#include <algorithm>

#include "osvs/kernels/attention/merge_model.h"
#include "osvs/osvs.h"

namespace osvs::test {

/// The CPU model's merge without its -inf guards (MergeMutation::EmptyGivesNan), on f32 buffers:
/// an empty partial's o is multiplied by 0 and two empty partials give NaN.
inline void merge_without_empty_guards(const MergeProblem& p) {
  const auto n = p.rows * p.head_dim;
  const AttnStates a{p.rows,
                     p.head_dim,
                     p.o_type,
                     {p.lse_a, p.lse_a + p.rows},
                     {p.o_a<float>(), p.o_a<float>() + n}};
  const AttnStates b{p.rows,
                     p.head_dim,
                     p.o_type,
                     {p.lse_b, p.lse_b + p.rows},
                     {p.o_b<float>(), p.o_b<float>() + n}};
  const AttnStates out = merge_states_model(a, b, p.base, MergeMutation::EmptyGivesNan);
  std::copy(out.lse.begin(), out.lse.end(), p.lse_out);
  std::copy(out.o.begin(), out.o.end(), p.o_out<float>());
}

}  // namespace osvs::test
