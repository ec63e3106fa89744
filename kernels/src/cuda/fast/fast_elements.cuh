// The element types the fast kernel reads and writes, four at a time (fast_plan.h's float4
// slots): float with 128-bit accesses, bf16 (its bits, std::uint16_t) with 64-bit ones. The
// arithmetic is float either way: a bf16 input widens exactly, an output rounds once to nearest
// even (dtype_bits.h, the same conversion as the host's), so the fp32 CPU model's outputs rounded
// to bf16 are the bf16 kernel's.
#pragma once

#include <cstdint>

#include "osvs/kernels/dtype_bits.h"

namespace osvs::cuda::fast {

template <class E>
struct Elements;

template <>
struct Elements<float> {
  static constexpr unsigned kVecBytes = 16;
  __device__ static void load4(const float* p, float* v) {
    const float4 q = *reinterpret_cast<const float4*>(p);
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
  }
  __device__ static float load1(const float* p) { return *p; }
  __device__ static void store4(float* p, const float* v) {
    *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
  }
  __device__ static void store1(float* p, float v) { *p = v; }
};

template <>
struct Elements<std::uint16_t> {  // bf16 bits
  static constexpr unsigned kVecBytes = 8;
  __device__ static void load4(const std::uint16_t* p, float* v) {
    const uint2 q =
        *reinterpret_cast<const uint2*>(p);  // little endian: element 0 in q.x's low half
    v[0] = float_of_bf16_bits(static_cast<std::uint16_t>(q.x & 0xffffu));
    v[1] = float_of_bf16_bits(static_cast<std::uint16_t>(q.x >> 16));
    v[2] = float_of_bf16_bits(static_cast<std::uint16_t>(q.y & 0xffffu));
    v[3] = float_of_bf16_bits(static_cast<std::uint16_t>(q.y >> 16));
  }
  __device__ static float load1(const std::uint16_t* p) { return float_of_bf16_bits(*p); }
  __device__ static void store4(std::uint16_t* p, const float* v) {
    const auto b = [](float x) { return static_cast<unsigned>(bf16_bits_of(x)); };
    *reinterpret_cast<uint2*>(p) = make_uint2(b(v[0]) | b(v[1]) << 16, b(v[2]) | b(v[3]) << 16);
  }
  __device__ static void store1(std::uint16_t* p, float v) { *p = bf16_bits_of(v); }
};

/// The four values at p[j .. j + 3] (fast_plan.h's float4 slot): one vector load where the
/// group is whole (j + 4 <= end) and vec_ok, else element loads, -inf at or past end.
template <class E>
__device__ __forceinline__ void load_group(const E* p, std::int64_t j, std::int64_t end,
                                           bool vec_ok, float* v) {
  if (vec_ok && j + 4 <= end) {
    Elements<E>::load4(p + j, v);
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c)
      v[c] = j + c < end ? Elements<E>::load1(p + j + c) : -__builtin_huge_valf();
  }
}

/// Writes out[0 .. 3] to p[j .. j + 3]: one vector store where the group is whole (j + 4 <= n)
/// and vec_ok, else element stores, none at or past n.
template <class E>
__device__ __forceinline__ void store_group(E* p, std::int64_t j, std::int64_t n, bool vec_ok,
                                            const float* out) {
  if (vec_ok && j + 4 <= n) {
    Elements<E>::store4(p + j, out);
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
