// The device side of block_schedule.h: thread stride loop, __shfl_down_sync tree per warp,
// shared-memory stage folded by warp 0, broadcast. The CPU model replays this order exactly: both
// read the same schedule policy (block_schedule_policy.h; BlockSchedule is the order as written).
#pragma once

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/state.h"

namespace osvs::cuda {

__device__ __forceinline__ float shfl_down(float v, int offset) {
  return __shfl_down_sync(0xffffffffu, v, offset);
}
/// binary64 values (the fast kernel's sums) move whole: declared here, before warp_reduce, since
/// a fundamental type has no associated namespace and would otherwise convert to float.
__device__ __forceinline__ double shfl_down(double v, int offset) {
  return __shfl_down_sync(0xffffffffu, v, offset);
}
__device__ __forceinline__ State shfl_down(State v, int offset) {
  return State{__shfl_down_sync(0xffffffffu, v.m, offset),
               __shfl_down_sync(0xffffffffu, v.d, offset)};
}

__device__ __forceinline__ float shfl_up(float v, int offset) {
  return __shfl_up_sync(0xffffffffu, v, offset);
}
__device__ __forceinline__ State shfl_up(State v, int offset) {
  return State{__shfl_up_sync(0xffffffffu, v.m, offset), __shfl_up_sync(0xffffffffu, v.d, offset)};
}
__device__ __forceinline__ float shfl_from_lane0(float v) {
  return __shfl_sync(0xffffffffu, v, 0);
}
__device__ __forceinline__ double shfl_from_lane0(double v) {
  return __shfl_sync(0xffffffffu, v, 0);
}
__device__ __forceinline__ State shfl_from_lane0(State v) {
  return State{__shfl_sync(0xffffffffu, v.m, 0), __shfl_sync(0xffffffffu, v.d, 0)};
}

/// Lane 0 receives the fold of the warp's 32 values: offsets Schedule::kFirstShuffleOffset, then
/// halved down to 1 (16, 8, 4, 2, 1 as written), each a __shfl_down_sync (__shfl_up_sync where
/// Schedule does not shuffle down).
template <class Schedule = BlockSchedule, class Alg>
__device__ __forceinline__ typename Alg::value_type warp_reduce(typename Alg::value_type v,
                                                                const Alg& alg) {
#pragma unroll
  for (int offset = Schedule::kFirstShuffleOffset; offset > 0; offset >>= 1) {
    if constexpr (Schedule::kShuffleDown)
      v = alg.combine(v, shfl_down(v, offset));
    else
      v = alg.combine(v, shfl_up(v, offset));
  }
  return v;
}

/// Every thread of the block receives the fold of row[0..n) in the block schedule's order.
/// Columns are Index: the stride loop forms col + BLOCK for every col < n, so it needs
/// n - 1 + BLOCK to fit in Index. With Index = int64_t that holds for every n validation admits
/// (n <= INT32_MAX); the seed kernel keeps int as written, and validation refuses it
/// n > INT32_MAX - BLOCK (validate.h, kSeedColumnLimit). Schedule (block_schedule_policy.h) says
/// which steps run as written. `warp` is the thread's warp value (lane 0 after the warp tree),
/// broadcast only where Schedule divides by the warp's state; otherwise it equals `row`.
template <class V>
struct DeviceReduction {
  V row;
  V warp;
};

template <int BLOCK, class Schedule = BlockSchedule, class Index, class Alg>
__device__ DeviceReduction<typename Alg::value_type> block_reduce(const float* row, Index n,
                                                                  const Alg& alg) {
  using V = typename Alg::value_type;
  constexpr int kNumWarps = (BLOCK + kWarpSize - 1) / kWarpSize;
  // without the lane guard warp 0 reads all 32 slots, those past kNumWarps never written
  constexpr int kSlots = Schedule::kLaneGuard ? kNumWarps : kWarpSize;
  __shared__ V smem[kSlots];
  __shared__ V result;
  const int tid = threadIdx.x;
  const int lane = tid & (kWarpSize - 1);
  const int warp = tid / kWarpSize;
  const Index end = !Schedule::kLoopToRowEnd && n > 0 ? n - 1 : n;

  V v = alg.initial();
  for (Index col = tid; col < end; col += BLOCK) v = alg.combine(v, alg.lift(row[col]));
  v = warp_reduce<Schedule>(v, alg);
  if (lane == 0) smem[warp] = v;
  if constexpr (Schedule::kSyncBeforeSharedStage) __syncthreads();
  if (warp == 0) {
    V w = (!Schedule::kLaneGuard || lane < kNumWarps) ? smem[lane] : alg.initial();
    w = warp_reduce<Schedule>(w, alg);
    if (lane == 0) result = w;
  }
  if constexpr (Schedule::kSyncBeforeBroadcast) __syncthreads();
  const V out = result;
  const V own_warp = Schedule::kDivideByRowState ? out : shfl_from_lane0(v);
  __syncthreads();  // smem and result may be reused by the next reduction of the same kernel
  return DeviceReduction<V>{out, own_warp};
}

}  // namespace osvs::cuda
