// The merge mutants on the device: merge_states_kernel (the kernel under test's template) with
// each policy of merge_mutant_policies.h, launched as launch_merge_states launches the real one.
#include "../merge_mutant_launchers.h"
#include "merge_states_launch.cuh"
#include "osvs/mutation/merge_mutant_policies.h"

namespace osvs::mutation {

template <class Policy>
void launch_merge_mutant(DType o_type, const void* o_a, const float* lse_a, const void* o_b,
                         const float* lse_b, void* o_out, float* lse_out, std::int64_t rows,
                         int head_dim, LseBase base, void* stream) {
  cuda::launch_merge_states_with<Policy>(o_type, o_a, lse_a, o_b, lse_b, o_out, lse_out, rows,
                                         head_dim, base, stream);
}

#define OSVS_MERGE_MUTANT_LAUNCHER(Policy, ...)                                             \
  template void launch_merge_mutant<Policy>(DType, const void*, const float*, const void*,  \
                                            const float*, void*, float*, std::int64_t, int, \
                                            LseBase, void*);
OSVS_MERGE_MUTANTS(OSVS_MERGE_MUTANT_LAUNCHER)
#undef OSVS_MERGE_MUTANT_LAUNCHER

}  // namespace osvs::mutation
