#include <cuda_runtime.h>

#include "merge_attn_states.h"
#include "merge_pack.h"

namespace example {
namespace {

constexpr int kThreads = 128;

__global__ void merge_attn_states_kernel(float* output, float* output_lse,
                                         const float* prefix_output, const float* prefix_lse,
                                         const float* suffix_output, const float* suffix_lse,
                                         std::int64_t rows, int head_size, bool lse_base2) {
  const int packs = (head_size + kPack - 1) / kPack;
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= rows * packs) return;
  merge_pack(output, output_lse, prefix_output, prefix_lse, suffix_output, suffix_lse, i / packs,
             head_size, static_cast<int>(i % packs) * kPack, lse_base2);
}

}  // namespace

void merge_attn_states(float* output, float* output_lse, const float* prefix_output,
                       const float* prefix_lse, const float* suffix_output, const float* suffix_lse,
                       std::int64_t num_tokens, int num_heads, int head_size, bool lse_base2,
                       void* stream) {
  const std::int64_t threads = num_tokens * num_heads * ((head_size + kPack - 1) / kPack);
  if (threads == 0) return;
  merge_attn_states_kernel<<<static_cast<unsigned>((threads + kThreads - 1) / kThreads), kThreads,
                             0, static_cast<cudaStream_t>(stream)>>>(
      output, output_lse, prefix_output, prefix_lse, suffix_output, suffix_lse,
      num_tokens * num_heads, head_size, lse_base2);
}

}  // namespace example
