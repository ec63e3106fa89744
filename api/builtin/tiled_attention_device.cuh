// The device executor of osvs's tiled attention kernel: one thread a (query token, query head)
// row, each running the host's loop (tiled_attention_row.h) over the runner's device buffers, K/V
// through the block table when paged. The same source as the host entry; only the elementary
// functions (Math) differ: CUDA's for the registered entry (builtin_tiled_attention_device.cu),
// portable ones for the device == host test.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tiled_attention.h"

namespace osvs::builtin {

/// Row t = token * heads_q + head; the token's sequence found by walking cu_seqlens_q (the
/// batches the laws draw hold a few sequences).
template <class P, class Math>
__global__ void tiled_attention_kernel(AttentionProblem p, bool right_to_left) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= p.total_q * p.heads_q) return;
  const std::int64_t token = t / p.heads_q;
  const int h = static_cast<int>(t % p.heads_q);
  int s = 0;
  while (p.cu_seqlens_q[s + 1] <= token) ++s;
  tiled_attention_row<P, Math>(p, s, token - p.cu_seqlens_q[s], h, right_to_left);
}

/// Launches the rows on p's stream; throws on a problem the rows cannot take (check_tiled_problem)
/// and on a launch CUDA refuses. The runner synchronises and reports the kernel's own errors.
template <class P, class Math = LibraryMath>
void launch_tiled_attention(const AttentionProblem& p) {
  check_tiled_problem<P>(p);
  const std::int64_t rows = p.total_q * p.heads_q;
  if (rows == 0) return;  // nothing to write
  const bool right_to_left = merges_right_to_left<P>();
  constexpr int kThreads = 128;
  const auto blocks = static_cast<unsigned>((rows + kThreads - 1) / kThreads);
  tiled_attention_kernel<P, Math>
      <<<blocks, kThreads, 0, p.cuda_stream<cudaStream_t>()>>>(p, right_to_left);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    throw std::runtime_error(std::string("tiled attention: the launch failed: ") +
                             cudaGetErrorString(e));
}

}  // namespace osvs::builtin
