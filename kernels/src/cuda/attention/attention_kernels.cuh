// The attention kernels: merge-states (one thread per output component) and split-KV decode (one
// warp per (query, split)). Their order is written in the headers they call (split_decode.h,
// attention_state.h, merge_states.h), which the CPU model calls too.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "osvs/kernels/attention/merge_states.h"
#include "osvs/kernels/attention/split_decode.h"

namespace osvs::cuda {

/// How an o of type T lives in device memory: float, or the 16 bits of a bf16 / fp16.
template <DType T>
struct Storage {
  using type = std::uint16_t;
};
template <>
struct Storage<DType::F32> {
  using type = float;
};
template <DType T>
using storage_t = typename Storage<T>::type;

/// Calls f(std::integral_constant<DType, t>{}) for an o type t (bf16, fp16 or float);
/// std::invalid_argument naming `what` ("attention o", "merge o") for an index or fp8 type.
template <class F>
decltype(auto) dispatch_o_type(DType t, const char* what, F&& f) {
  switch (t) {
    case DType::BF16:
      return f(std::integral_constant<DType, DType::BF16>{});
    case DType::F16:
      return f(std::integral_constant<DType, DType::F16>{});
    case DType::F32:
      break;
    case DType::I32:
    case DType::I64:
    case DType::E4M3:
    case DType::E5M2:
      throw std::invalid_argument(std::string(what) + " of an index or fp8 type");
  }
  return f(std::integral_constant<DType, DType::F32>{});
}

template <DType T>
__device__ float load_o(const storage_t<T>* p, std::int64_t i) {
  if constexpr (T == DType::F32)
    return p[i];
  else if constexpr (T == DType::BF16)
    return float_of_bf16_bits(p[i]);
  else
    return float_of_f16_bits(p[i]);
}

template <DType T>
__device__ void store_o(storage_t<T>* p, std::int64_t i, float x) {
  if constexpr (T == DType::F32)
    p[i] = x;
  else if constexpr (T == DType::BF16)
    p[i] = bf16_bits_of(x);
  else
    p[i] = f16_bits_of(x);
}

/// out = merge(a, b), row by row: thread i handles component i % head_dim of row i / head_dim,
/// each step as Policy writes it (merge_policy.h: MergeAsWritten in osvs's kernel; a mutant of
/// mutation/ is the same kernel with one step changed).
template <DType T, class Policy = MergeAsWritten>
__global__ void merge_states_kernel(const storage_t<T>* o_a, const float* lse_a,
                                    const storage_t<T>* o_b, const float* lse_b,
                                    storage_t<T>* o_out, float* lse_out, std::int64_t rows,
                                    int head_dim, LseBase base) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= rows * head_dim) return;
  const std::int64_t r = i / head_dim;
  const LseMerge m = merge_lse<Policy>(lse_a[r], lse_b[r], base);
  if (i % head_dim == 0) lse_out[r] = m.lse;
  // Components past Policy::merged_components are written as 0 (as merge_model.h writes them);
  // under MergeAsWritten the first test is head_dim < head_dim, false at compile time.
  if (Policy::merged_components(head_dim) < head_dim &&
      i % head_dim >= Policy::merged_components(head_dim))
    return store_o<T>(o_out, i, 0.0f);
  store_o<T>(o_out, i, merge_o<Policy>(m, load_o<T>(o_a, i), load_o<T>(o_b, i)));
}

/// Split blockIdx.y of query row blockIdx.x; one warp (blockDim.x == kAttnWarp). Partials go to
/// slot blockIdx.y of o_part (splits x rows x head_dim) and lse_part (splits x rows).
template <DType T>
__global__ void split_decode_kernel(const float* q, const float* k, const float* v,
                                    const std::uint8_t* masked, const std::int64_t* offsets,
                                    storage_t<T>* o_part, float* lse_part, std::int64_t rows,
                                    int heads, int head_dim, std::int64_t kv_len, float multiplier,
                                    LseBase base) {
  const std::int64_t r = blockIdx.x;
  const std::int64_t split = blockIdx.y;
  const int lane = static_cast<int>(threadIdx.x);
  const std::int64_t b = r / heads;
  const float* q_row = q + r * head_dim;
  State state = identity_state();
  float o[kAttnMaxPerLane];
  for (int i = 0; i < kAttnMaxPerLane; ++i) o[i] = 0.0f;
  for (std::int64_t j = offsets[split]; j < offsets[split + 1]; ++j) {
    const std::int64_t key = (r * kv_len + j) * head_dim;
    const bool is_masked = masked != nullptr && masked[b * kv_len + j] != 0;  // warp-uniform
    float dot = 0.0f;
    if (!is_masked) {
      dot = lane_dot(q_row, k + key, head_dim, lane);
      for (int offset = kAttnWarp / 2; offset > 0; offset /= 2)
        dot = detail::add_rn(dot, __shfl_xor_sync(0xffffffffu, dot, offset));
    }
    const AttnWeights w =
        attn_combine(state, attn_lift(key_score(dot, multiplier, is_masked)), base);
    for (int i = 0; i < kAttnMaxPerLane; ++i) {
      const int c = lane + i * kAttnWarp;
      if (c < head_dim) o[i] = attn_combine_o(w, o[i], is_masked ? 0.0f : v[key + c]);
    }
    state = w.s;
  }
  const std::int64_t slot_row = split * rows + r;
  if (lane == 0) lse_part[slot_row] = attn_lse(state, base);
  for (int i = 0; i < kAttnMaxPerLane; ++i) {
    const int c = lane + i * kAttnWarp;
    if (c < head_dim) store_o<T>(o_part, slot_row * head_dim + c, attn_normalise(o[i], state));
  }
}

}  // namespace osvs::cuda
