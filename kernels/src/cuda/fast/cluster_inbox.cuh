// The exchange of a cluster row's part states by pushes (sm_90): every block writes its state
// into a slot of every block's inbox with st.async, and each block waits only on its own inbox's
// mbarrier, which counts the bytes in. One barrier of the whole cluster, at the start (every
// inbox is ready before any push), and none after: a block leaves only once every push to it has
// landed, so no block can leave while another still writes to it, and nothing is read remotely.
#pragma once

#include <cstdint>

#include "osvs/kernels/fast_plan.h"
#include "osvs/kernels/fast_schedule.h"
#include "staged_load.cuh"

namespace osvs::cuda::fast {

/// Every thread: arrives at the cluster barrier without ordering its memory accesses (the inbox's
/// mbarrier is published by its own release fence, TxBarrier::init), so that loads issued
/// after it are not held back; cluster_wait completes it.
__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}
/// Every thread: waits for every block of the cluster to have arrived (acquire).
__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}

/// A block's inbox: slot r holds the state of the cluster's block r.
struct ClusterInbox {
  __align__(16) FastMergeState slot[kFastClusterMax];
  TxBarrier landed;

  /// Thread 0, before the cluster barrier that precedes every push: C states expected.
  __device__ void open(int C) {
    landed.init();
    landed.expect(static_cast<std::uint32_t>(C * sizeof(FastMergeState)));
  }

  /// Lanes r < C of warp 0 of block b: push `mine` into slot b of block r's inbox.
  __device__ void push(int C, int b, const FastMergeState& mine) {
    const int lane = static_cast<int>(threadIdx.x);
    if (lane >= C) return;
    std::uint32_t dst = 0, bar = 0;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(dst)
                 : "r"(shared_address(&slot[b])), "r"(lane));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(bar)
                 : "r"(landed.address()), "r"(lane));
    asm volatile(
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, "
        "%4}, [%5];" ::"r"(dst),
        "r"(__float_as_uint(mine.s.m)), "r"(__float_as_uint(mine.s.d)),
        "r"(__float_as_uint(mine.lo)), "r"(0u), "r"(bar)
        : "memory");
  }
};

}  // namespace osvs::cuda::fast
