// The device side of block_schedule.h: thread stride loop, __shfl_down_sync tree per warp,
// shared-memory stage folded by warp 0, broadcast. The CPU model replays this order exactly.
#pragma once

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/state.h"

namespace osvs::cuda {

__device__ __forceinline__ float shfl_down(float v, int offset) {
  return __shfl_down_sync(0xffffffffu, v, offset);
}
__device__ __forceinline__ State shfl_down(State v, int offset) {
  return State{__shfl_down_sync(0xffffffffu, v.m, offset),
               __shfl_down_sync(0xffffffffu, v.d, offset)};
}

/// Lane 0 receives the fold of the warp's 32 values (offsets 16, 8, 4, 2, 1).
template <class Alg>
__device__ __forceinline__ typename Alg::value_type warp_reduce(typename Alg::value_type v,
                                                                const Alg& alg) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1)
    v = alg.combine(v, shfl_down(v, offset));
  return v;
}

/// Every thread of the block receives the fold of row[0..n) in the block schedule's order.
/// Index is the type of the column arithmetic (int in the seed kernel, as written).
template <int BLOCK, class Index, class Alg>
__device__ typename Alg::value_type block_reduce(const float* row, Index n, const Alg& alg) {
  using V = typename Alg::value_type;
  constexpr int kNumWarps = (BLOCK + kWarpSize - 1) / kWarpSize;
  __shared__ V smem[kNumWarps];
  __shared__ V result;
  const int tid = threadIdx.x;
  const int lane = tid & (kWarpSize - 1);
  const int warp = tid / kWarpSize;

  V v = alg.initial();
  for (Index col = tid; col < n; col += BLOCK) v = alg.combine(v, alg.lift(row[col]));
  v = warp_reduce(v, alg);
  if (lane == 0) smem[warp] = v;
  __syncthreads();
  if (warp == 0) {
    V w = lane < kNumWarps ? smem[lane] : alg.initial();
    w = warp_reduce(w, alg);
    if (lane == 0) result = w;
  }
  __syncthreads();
  const V out = result;
  __syncthreads();  // smem and result may be reused by the next reduction of the same kernel
  return out;
}

}  // namespace osvs::cuda
