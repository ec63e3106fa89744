#include <cfloat>

#include "fast_softmax.h"

namespace example {
namespace {

constexpr int kWarp = 32;
constexpr int kBlock = 256;
constexpr std::int64_t kWarpRowMax = 1024;  // rows up to this length: one warp per row

struct MD {
  float m, d;
};

__device__ __forceinline__ MD merge(MD a, MD b) {
  const float m = fmaxf(a.m, b.m);
  return {m, a.d * __expf(a.m - m) + b.d * __expf(b.m - m)};
}

__device__ __forceinline__ MD add(MD s, float x) {
  const float m = fmaxf(s.m, x);
  return {m, s.d * __expf(s.m - m) + __expf(x - m)};
}

__device__ __forceinline__ MD warp_merge(MD s) {
  for (int off = kWarp / 2; off > 0; off /= 2) {
    MD o{__shfl_xor_sync(0xffffffffu, s.m, off), __shfl_xor_sync(0xffffffffu, s.d, off)};
    s = merge(s, o);
  }
  return s;
}

/// Threads [first, first + count) of a row reduce it: float4 loads on the aligned body, scalar
/// head and tail.
__device__ MD reduce_row(const float* x, std::int64_t n, int lane, int count) {
  MD s{-FLT_MAX, 0.0f};
  const auto addr = reinterpret_cast<std::uintptr_t>(x);
  std::int64_t head = static_cast<std::int64_t>((16 - addr % 16) % 16 / 4);
  if (head > n) head = n;
  for (std::int64_t j = lane; j < head; j += count) s = add(s, x[j]);
  const std::int64_t vecs = (n - head) / 4;
  const float4* v = reinterpret_cast<const float4*>(x + head);
  for (std::int64_t k = lane; k < vecs; k += count) {
    const float4 q = v[k];
    s = add(add(add(add(s, q.x), q.y), q.z), q.w);
  }
  for (std::int64_t j = head + vecs * 4 + lane; j < n; j += count) s = add(s, x[j]);
  return s;
}

__device__ void write_row(const float* x, float* y, std::int64_t n, MD s, int lane, int count) {
  const float inv = 1.0f / s.d;
  for (std::int64_t j = lane; j < n; j += count) y[j] = __expf(x[j] - s.m) * inv;
}

__global__ void warp_per_row(const float* x, float* y, std::int64_t M, std::int64_t N) {
  const std::int64_t row =
      static_cast<std::int64_t>(blockIdx.x) * (kBlock / kWarp) + threadIdx.x / kWarp;
  if (row >= M) return;
  const int lane = threadIdx.x % kWarp;
  const MD s = warp_merge(reduce_row(x + row * N, N, lane, kWarp));
  write_row(x + row * N, y + row * N, N, s, lane, kWarp);
}

__global__ void block_per_row(const float* x, float* y, std::int64_t N) {
  __shared__ MD partial[kBlock / kWarp];
  const std::int64_t row = blockIdx.x;
  const int t = threadIdx.x;
  MD s = warp_merge(reduce_row(x + row * N, N, t, kBlock));
  if (t % kWarp == 0) partial[t / kWarp] = s;
  __syncthreads();
  s = partial[0];
  for (int w = 1; w < kBlock / kWarp; ++w) s = merge(s, partial[w]);
  write_row(x + row * N, y + row * N, N, s, t, kBlock);
}

}  // namespace

void fast_softmax(const float* x, float* y, std::int64_t M, std::int64_t N, cudaStream_t stream) {
  if (M == 0 || N == 0) return;
  if (N <= kWarpRowMax) {
    const auto rows_per_block = kBlock / kWarp;
    warp_per_row<<<static_cast<unsigned>((M + rows_per_block - 1) / rows_per_block), kBlock, 0,
                   stream>>>(x, y, M, N);
  } else {
    block_per_row<<<static_cast<unsigned>(M), kBlock, 0, stream>>>(x, y, N);
  }
}

}  // namespace example
