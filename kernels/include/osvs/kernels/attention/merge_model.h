// The merge-states kernel's CPU model on whole partial states, and its mutants.
#pragma once

#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/attention/merge_mutation.h"

namespace osvs {

/// Row by row, (lse, o) = merge(a, b) in the order of the device kernel (merge_states.h): every
/// component computes the same merge_lse and its own merge_o, rounded to the o type. With a
/// mutation, the mutant's merge (merge_mutation.h). a and b must have the same shape
/// (validate(a, b)).
AttnStates merge_states_model(const AttnStates& a, const AttnStates& b, LseBase base,
                              MergeMutation mutation = MergeMutation::None);

}  // namespace osvs
