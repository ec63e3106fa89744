// The element types the fast kernel reads and writes, four at a time (fast_plan.h's float4
// slots): float with 128-bit accesses, bf16 (its bits, std::uint16_t) with 64-bit ones. The
// arithmetic is float either way: a bf16 input widens exactly, an output rounds once to nearest
// even (dtype_bits.h, the same conversion as the host's), so the fp32 CPU model's outputs rounded
// to bf16 are the bf16 kernel's.
#pragma once

#include <cstdint>

#include "osvs/kernels/dtype_bits.h"

namespace osvs::cuda::fast {

/// What a load or store tells L2 about the line (PTX cache operators and L2 eviction policies):
/// Normal, none; Reread, keep it, it is read again soon (evict_last); LastUse, the line's last
/// touch (ld/st .cs: evict first). The lagged split kernel reads a chunk twice (fast_kernels.cuh):
/// the first read keeps its lines for the second, which releases them, and its outputs stream.
enum class L2Hint { Normal, Reread, LastUse };

/// A vector load (8 or 16 bytes) under hint H.
template <L2Hint H, class V>
__device__ __forceinline__ V load16(const V* p) {
  static_assert(sizeof(V) == 16 || sizeof(V) == 8, "vector loads of 8 or 16 bytes");
  if constexpr (H == L2Hint::LastUse) {
    return __ldcs(p);
  } else if constexpr (H == L2Hint::Reread) {
    std::uint64_t policy;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    V v;
    if constexpr (sizeof(V) == 16)
      asm volatile("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                   : "=r"(reinterpret_cast<uint4&>(v).x), "=r"(reinterpret_cast<uint4&>(v).y),
                     "=r"(reinterpret_cast<uint4&>(v).z), "=r"(reinterpret_cast<uint4&>(v).w)
                   : "l"(p), "l"(policy));
    else
      asm volatile("ld.global.L2::cache_hint.v2.u32 {%0, %1}, [%2], %3;"
                   : "=r"(reinterpret_cast<uint2&>(v).x), "=r"(reinterpret_cast<uint2&>(v).y)
                   : "l"(p), "l"(policy));
    return v;
  } else {
    return *p;
  }
}

/// A vector store under hint H (LastUse: streaming, evict first).
template <L2Hint H, class V>
__device__ __forceinline__ void store16(V* p, V v) {
  if constexpr (H == L2Hint::LastUse)
    __stcs(p, v);
  else
    *p = v;
}

template <class E>
struct Elements;

template <>
struct Elements<float> {
  static constexpr unsigned kVecBytes = 16;
  template <L2Hint H = L2Hint::Normal>
  __device__ static void load4(const float* p, float* v) {
    const float4 q = load16<H>(reinterpret_cast<const float4*>(p));
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
  }
  __device__ static float load1(const float* p) { return *p; }
  template <L2Hint H = L2Hint::Normal>
  __device__ static void store4(float* p, const float* v) {
    store16<H>(reinterpret_cast<float4*>(p), make_float4(v[0], v[1], v[2], v[3]));
  }
  __device__ static void store1(float* p, float v) { *p = v; }
};

template <>
struct Elements<std::uint16_t> {  // bf16 bits
  static constexpr unsigned kVecBytes = 8;
  template <L2Hint H = L2Hint::Normal>
  __device__ static void load4(const std::uint16_t* p, float* v) {
    // little endian: element 0 in q.x's low half
    const uint2 q = load16<H>(reinterpret_cast<const uint2*>(p));
    v[0] = float_of_bf16_bits(static_cast<std::uint16_t>(q.x & 0xffffu));
    v[1] = float_of_bf16_bits(static_cast<std::uint16_t>(q.x >> 16));
    v[2] = float_of_bf16_bits(static_cast<std::uint16_t>(q.y & 0xffffu));
    v[3] = float_of_bf16_bits(static_cast<std::uint16_t>(q.y >> 16));
  }
  __device__ static float load1(const std::uint16_t* p) { return float_of_bf16_bits(*p); }
  template <L2Hint H = L2Hint::Normal>
  __device__ static void store4(std::uint16_t* p, const float* v) {
    const auto b = [](float x) { return static_cast<unsigned>(bf16_bits_of(x)); };
    store16<H>(reinterpret_cast<uint2*>(p),
               make_uint2(b(v[0]) | b(v[1]) << 16, b(v[2]) | b(v[3]) << 16));
  }
  __device__ static void store1(std::uint16_t* p, float v) { *p = bf16_bits_of(v); }
};

/// The four values at p[j .. j + 3] (fast_plan.h's float4 slot): one vector load where the
/// group is whole (j + 4 <= end) and vec_ok, else element loads, -inf at or past end.
template <L2Hint H = L2Hint::Normal, class E>
__device__ __forceinline__ void load_group(const E* p, std::int64_t j, std::int64_t end,
                                           bool vec_ok, float* v) {
  if (vec_ok && j + 4 <= end) {
    Elements<E>::template load4<H>(p + j, v);
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c)
      v[c] = j + c < end ? Elements<E>::load1(p + j + c) : -__builtin_huge_valf();
  }
}

/// Writes out[0 .. 3] to p[j .. j + 3]: one vector store where the group is whole (j + 4 <= n)
/// and vec_ok, else element stores, none at or past n.
template <L2Hint H = L2Hint::Normal, class E>
__device__ __forceinline__ void store_group(E* p, std::int64_t j, std::int64_t n, bool vec_ok,
                                            const float* out) {
  if (vec_ok && j + 4 <= n) {
    Elements<E>::template store4<H>(p + j, out);
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c)
      if (j + c < n) Elements<E>::store1(p + j + c, out[c]);
  }
}

/// Whether p allows E's vector accesses.
template <class E>
__device__ __forceinline__ bool vector_aligned(const E* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & (Elements<E>::kVecBytes - 1)) == 0;
}

}  // namespace osvs::cuda::fast
