// The device executor of osvs's attention backward kernel: one thread an output element's row —
// a (query token, head) row's dq and delta, a (key token, kv head) row's dk and dv, a query head's
// dsinks — each running the host's function of it (tiled_attention_backward_elements.h) over the
// runner's device buffers, in three launches on p's stream. The same source as the host entry;
// only the elementary functions (Math) differ: CUDA's for the registered entry
// (builtin_tiled_attention_backward_device.cu), portable ones for the device == host test. Each
// element is summed by its one thread in the host's fixed order, never by atomics: the outputs'
// bits follow the problem only, launch after launch (the kernel declares determinism and batch
// invariance bitwise, as the host's).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tiled_attention_backward.h"

namespace osvs::builtin {

/// Thread t: a query row's dq and delta (tiled_attention_backward_row_thread).
template <class P, class Math>
__global__ void tiled_attention_backward_rows(AttentionProblem p) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < p.total_q * p.heads_q) tiled_attention_backward_row_thread<P, Math>(p, t);
}

/// Thread t: a key row's dk and dv (tiled_attention_backward_key_thread).
template <class P, class Math>
__global__ void tiled_attention_backward_keys(AttentionProblem p, bool reversed) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < p.total_k * p.heads_kv) tiled_attention_backward_key_thread<P, Math>(p, t, reversed);
}

/// Query head t: its dsinks.
template <class P, class Math>
__global__ void tiled_attention_backward_sinks(AttentionProblem p, bool reversed) {
  const int h = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (h < p.heads_q) tiled_attention_backward_sink<P, Math>(p, h, reversed);
}

/// Launches the three on p's stream; throws on a problem they cannot take
/// (check_tiled_backward_problem) and on a launch CUDA refuses. The runner synchronises and
/// reports the kernels' own errors.
template <class P, class Math = LibraryMath>
void launch_tiled_attention_backward(const AttentionProblem& p) {
  check_tiled_backward_problem(p);
  const bool reversed = rows_reversed<P>();
  const cudaStream_t stream = p.cuda_stream<cudaStream_t>();
  constexpr int kThreads = 64;
  const auto blocks = [](std::int64_t n) {
    return static_cast<unsigned>((n + kThreads - 1) / kThreads);
  };
  const auto launched = [](const char* what) {
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
      throw std::runtime_error(std::string("tiled attention backward: the launch of the ") + what +
                               " failed: " + cudaGetErrorString(e));
  };
  if (const std::int64_t rows = p.total_q * p.heads_q; rows > 0) {
    tiled_attention_backward_rows<P, Math><<<blocks(rows), kThreads, 0, stream>>>(p);
    launched("query rows");
  }
  if (const std::int64_t keys = p.total_k * p.heads_kv; keys > 0) {
    tiled_attention_backward_keys<P, Math><<<blocks(keys), kThreads, 0, stream>>>(p, reversed);
    launched("key rows");
  }
  if (p.sinks != nullptr && p.heads_q > 0) {
    tiled_attention_backward_sinks<P, Math>
        <<<blocks(p.heads_q), kThreads, 0, stream>>>(p, reversed);
    launched("sinks");
  }
}

}  // namespace osvs::builtin
