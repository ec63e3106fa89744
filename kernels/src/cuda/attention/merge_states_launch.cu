#include "merge_states_launch.cuh"
#include "osvs/kernels/attention/merge_states_launch.h"

namespace osvs::cuda {

void launch_merge_states(DType o_type, const void* o_a, const float* lse_a, const void* o_b,
                         const float* lse_b, void* o_out, float* lse_out, std::int64_t rows,
                         int head_dim, LseBase base, void* stream) {
  launch_merge_states_with<MergeAsWritten>(o_type, o_a, lse_a, o_b, lse_b, o_out, lse_out, rows,
                                           head_dim, base, stream);
}

}  // namespace osvs::cuda
