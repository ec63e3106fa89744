// A part of a row staged into shared memory by the copy engine (sm_90 bulk copies): one thread
// asks for the part's bytes, an mbarrier counts them in (TxBarrier), the block's threads then read
// their values from shared memory in fast_plan.h's layout. The copy needs no registers while in
// flight, so the cooperative split kernel asks for a block's next chunk before it computes the
// current one, and a cluster block keeps its part in shared memory rather than registers
// (fast_kernels.cuh). The same barrier counts in the states of cluster_inbox.cuh.
//
// Requirements (checked by the launcher, fast_launch.cu): the row's base address and its length
// in bytes are multiples of 16 (a bulk copy's granularity); a part is at most 64 KiB.
#pragma once

#include <cstdint>

#include "fast_elements.cuh"

namespace osvs::cuda::fast {

/// The shared-memory address of p (the form the bulk-copy and mbarrier instructions take).
__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

/// An mbarrier of one arrival (the thread that expects the bytes) that counts bytes in: those of
/// a bulk copy (stage) or of other blocks' asynchronous stores (expect, cluster_inbox.cuh).
class TxBarrier {
 public:
  /// Thread 0 of the block, once, before the block's first __syncthreads.
  __device__ void init() {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(address()) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  /// One thread: this phase's arrival, expecting `bytes`.
  __device__ void expect(std::uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(address()),
                 "r"(bytes)
                 : "memory");
  }
  /// One thread: copies `bytes` from global `src` to shared `dst` (both 16-byte aligned, bytes a
  /// multiple of 16), this phase's arrival expecting them. The caller makes sure no thread still
  /// reads dst (a __syncthreads after the last reads): the generic reads are ordered before the
  /// copy's writes by the proxy fence.
  __device__ void stage(void* dst, const void* src, std::uint32_t bytes) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    expect(bytes);
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(shared_address(dst)),
        "l"(src), "r"(bytes), "r"(address())
        : "memory");
  }
  /// The barrier's shared-memory address (the form the instructions take).
  __device__ std::uint32_t address() const { return shared_address(&word_); }
  /// Every thread: waits until phase `parity` (0, 1, 0, ...: one an arrival) completed. CLUSTER:
  /// with acquire at cluster scope, for bytes stored by other blocks of the cluster; else at the
  /// block's (a bulk copy's bytes).
  template <bool CLUSTER = false>
  __device__ void wait(std::uint32_t parity) {
    std::uint32_t done = 0;
    do {
      if constexpr (CLUSTER)
        asm volatile(
            "{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, "
            "[%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
            : "=r"(done)
            : "r"(address()), "r"(parity)
            : "memory");
      else
        asm volatile(
            "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
            " selp.u32 %0, 1, 0, p;\n}"
            : "=r"(done)
            : "r"(address()), "r"(parity)
            : "memory");
    } while (!done);
  }

 private:
  std::uint64_t word_;
};

/// Thread t's float4 slot k of a staged part of `len` elements (fast_plan.h's layout, as
/// load_chunk): -inf at or past len.
template <int T, class E>
__device__ __forceinline__ void read_staged_group(const E* staged, std::int64_t len, int t, int k,
                                                  float* v) {
  load_group(staged, (std::int64_t{k} * T + t) * 4, len, true, v);
}

/// Thread t's values of a staged part of `len` elements: -inf at or past len.
template <int T, int K, class E>
__device__ __forceinline__ void read_staged(const E* staged, std::int64_t len, int t,
                                            float (&v)[4 * K]) {
#pragma unroll
  for (int k = 0; k < K; ++k) read_staged_group<T>(staged, len, t, k, v + 4 * k);
}

}  // namespace osvs::cuda::fast
