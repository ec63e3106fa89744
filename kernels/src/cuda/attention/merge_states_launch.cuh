// The merge-states kernel's launch over a merge policy: merge_states_launch.cu instantiates it
// with MergeAsWritten (the kernel under test), mutation/'s merge mutants with their policies.
#pragma once

#include <cstdint>
#include <stdexcept>

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
  switch (o_type) {
    case DType::BF16:
      return launch_merge_states_typed<DType::BF16, Policy>(o_a, lse_a, o_b, lse_b, o_out, lse_out,
                                                            rows, head_dim, base, s);
    case DType::F16:
      return launch_merge_states_typed<DType::F16, Policy>(o_a, lse_a, o_b, lse_b, o_out, lse_out,
                                                           rows, head_dim, base, s);
    case DType::F32:
      break;
    case DType::I32:
    case DType::I64:
    case DType::E4M3:
    case DType::E5M2:
      throw std::invalid_argument("merge o of an index or fp8 type");
  }
  launch_merge_states_typed<DType::F32, Policy>(o_a, lse_a, o_b, lse_b, o_out, lse_out, rows,
                                                head_dim, base, s);
}

}  // namespace osvs::cuda
