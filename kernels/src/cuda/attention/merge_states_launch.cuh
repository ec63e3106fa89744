// The merge-states kernel's launch over a merge policy: merge_states_launch.cu instantiates it
// with MergeAsWritten (the kernel under test), mutation/'s merge mutants with their policies.
#pragma once

#include <cstdint>

#include "attention_kernels.cuh"
#include "osvs/kernels/dtype.h"

namespace osvs::cuda {

inline constexpr int kMergeBlock = 256;

template <DType T, class Policy>
void launch_merge_states_typed(const void* o_a, const float* lse_a, const void* o_b,
                               const float* lse_b, void* o_out, float* lse_out, std::int64_t rows,
                               int head_dim, LseBase base, cudaStream_t stream) {
  const std::int64_t n = rows * head_dim;
  if (n == 0) return;
  const auto grid = static_cast<unsigned>((n + kMergeBlock - 1) / kMergeBlock);
  merge_states_kernel<T, Policy><<<grid, kMergeBlock, 0, stream>>>(
      static_cast<const storage_t<T>*>(o_a), lse_a, static_cast<const storage_t<T>*>(o_b), lse_b,
      static_cast<storage_t<T>*>(o_out), lse_out, rows, head_dim, base);
}

/// Enqueues out = merge(a, b) under Policy on `stream` (launch_merge_states's contract).
template <class Policy>
void launch_merge_states_with(DType o_type, const void* o_a, const float* lse_a, const void* o_b,
                              const float* lse_b, void* o_out, float* lse_out, std::int64_t rows,
                              int head_dim, LseBase base, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  dispatch_o_type(o_type, "merge o", [&](auto t) {
    launch_merge_states_typed<decltype(t)::value, Policy>(o_a, lse_a, o_b, lse_b, o_out, lse_out,
                                                          rows, head_dim, base, s);
  });
}

}  // namespace osvs::cuda
