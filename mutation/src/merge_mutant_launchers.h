// The merge mutants' device launchers: defined, in builds with CUDA only, by
// src/cuda/merge_mutants.cu for every policy of merge_mutant_policies.h. Each enqueues the
// merge-states kernel under test's template instantiated with the policy
// (launch_merge_states's contract: launch errors are left for the caller to check).
#pragma once

#include <cstdint>

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/dtype.h"

namespace osvs::mutation {

template <class Policy>
void launch_merge_mutant(DType o_type, const void* o_a, const float* lse_a, const void* o_b,
                         const float* lse_b, void* o_out, float* lse_out, std::int64_t rows,
                         int head_dim, LseBase base, void* stream);

}  // namespace osvs::mutation
