// The merge-states kernel on device memory (attention_kernels.cuh), for callers that own their
// buffers and stream: the registered device entry of the public API (api/builtin/) and the CUDA
// attention executor. Defined only in builds with CUDA.
#pragma once

#include <cstdint>

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/dtype.h"

namespace osvs::cuda {

/// Enqueues out = merge(a, b) row by row on `stream` (a cudaStream_t; null: the default stream).
/// o buffers hold rows x head_dim values of o_type (float, or the 16 bits of a bf16 / f16), lse
/// buffers rows floats. Launch errors are left for the caller to check (cudaGetLastError).
void launch_merge_states(DType o_type, const void* o_a, const float* lse_a, const void* o_b,
                         const float* lse_b, void* o_out, float* lse_out, std::int64_t rows,
                         int head_dim, LseBase base, void* stream);

}  // namespace osvs::cuda
