// The merge mutants of the catalogue: the merge of attention partials (merge_states.h) under a
// policy of merge_mutant_policies.h that changes one step. Each runs as the CPU model
// (merge_states_model_with) and, in builds with CUDA, as the merge-states kernel compiled with
// the policy; api/tests/merge_mutants_test.cpp holds each to the merge laws as a registered merge
// kernel would be.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/dtype.h"

namespace osvs::mutation {

struct MergeMutant {
  const char* name;  ///< "no_rescale": the kernels' names are osvs.merge_mutant.<name>[.cpu_model]
  const char* bug;   ///< what it breaks, one sentence
  /// The CPU model with the mutant's policy.
  AttnStates (*cpu_model)(const AttnStates& a, const AttnStates& b, LseBase base);
  /// The merge-states kernel with the mutant's policy (launch_merge_states's contract), or
  /// nullptr in a build without CUDA.
  void (*launch)(DType o_type, const void* o_a, const float* lse_a, const void* o_b,
                 const float* lse_b, void* o_out, float* lse_out, std::int64_t rows, int head_dim,
                 LseBase base, void* stream);
};

/// Every merge mutant, in the catalogue's order.
const std::vector<MergeMutant>& merge_mutants();

/// The mutant named `name`, or nullptr.
const MergeMutant* find_merge_mutant(std::string_view name);

}  // namespace osvs::mutation
