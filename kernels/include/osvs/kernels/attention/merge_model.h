// The merge-states kernel's CPU model on whole partial states.
#pragma once

#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/attention/merge_states.h"
#include "osvs/kernels/attention/split_decode.h"

namespace osvs {

/// Row by row, (lse, o) = merge(a, b) in the order of the device kernel (merge_states.h): every
/// component computes the same merge_lse and its own merge_o, rounded to the o type; the
/// components past Policy::merged_components are written as 0, as the device kernel writes them.
/// a and b must have the same shape (validate(a, b)).
template <class Policy = MergeAsWritten>
AttnStates merge_states_model_with(const AttnStates& a, const AttnStates& b, LseBase base) {
  AttnStates out{a.rows, a.head_dim, a.o_type, std::vector<float>(a.lse.size()),
                 std::vector<float>(a.o.size())};
  const int dim = a.head_dim;
  const int merged = Policy::merged_components(dim);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const auto row = static_cast<std::size_t>(r);
    const LseMerge m = merge_lse<Policy>(a.lse[row], b.lse[row], base);
    out.lse[row] = m.lse;
    for (int c = 0; c < merged; ++c) {
      const auto i = row * static_cast<std::size_t>(dim) + static_cast<std::size_t>(c);
      out.o[i] = round_attn(a.o_type, merge_o<Policy>(m, a.o[i], b.o[i]));
    }
  }
  return out;
}

/// The merge-states kernel under test (MergeAsWritten).
AttnStates merge_states_model(const AttnStates& a, const AttnStates& b, LseBase base);

}  // namespace osvs
