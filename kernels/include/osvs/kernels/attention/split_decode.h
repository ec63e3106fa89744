// The split-KV decode kernel's order, written once for the device and the CPU model.
//
// One warp of kAttnWarp lanes handles one (query, split). Lane l owns the components
// c = l, l + 32, ... < head_dim (at most kAttnMaxPerLane). For each key j of the split, in order:
//
//   1. lane_dot: the lane's partial q . k_j over its components, ascending, acc = q_c k_jc + acc
//      (one fma each; the first on acc = 0);
//   2. the xor butterfly (offsets 16, 8, 4, 2, 1): x = x + x_(lane ^ offset). Float addition is
//      commutative, so after each step the two lanes of a pair hold the same bits, and after the
//      last every lane holds the same dot (warp_dot_model replays it on the host);
//   3. score: masked key -inf, else fl(dot * multiplier) (score_multiplier, attention_cases.h);
//   4. state = attn_combine(state, attn_lift(score)); each lane o_c = attn_combine_o(w, o_c, v_jc).
//
// The split's partial is (attn_lse(state), attn_normalise(o_c, state)) rounded to the output type
// (store_attn). The partials are then merged by the merge-states kernel along the plan's tree.
#pragma once

#include <cstdint>

#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/attention/attention_state.h"
#include "osvs/kernels/dtype_bits.h"

namespace osvs {

/// The lane's partial dot product of q and k over the components it owns.
OSVS_HD float lane_dot(const float* q, const float* k, int head_dim, int lane) {
  float acc = 0.0f;
  for (int c = lane; c < head_dim; c += kAttnWarp) acc = mul_add_k(q[c], k[c], acc);
  return acc;
}

/// The score of a key from its dot product.
OSVS_HD float key_score(float dot, float multiplier, bool masked) {
  return masked ? -__builtin_huge_valf() : detail::mul_rn(dot, multiplier);
}

/// x rounded to the output type, as the float it equals (exact for F32).
OSVS_HD float round_attn(DType t, float x) {
  if (t == DType::BF16) return float_of_bf16_bits(bf16_bits_of(x));
  if (t == DType::F16) return float_of_f16_bits(f16_bits_of(x));
  return x;
}

#if !defined(__CUDA_ARCH__)
/// The butterfly of step 2 on the host: every lane's partial in, the dot every lane ends with.
inline float warp_dot_model(const float* q, const float* k, int head_dim) {
  float x[kAttnWarp];
  for (int lane = 0; lane < kAttnWarp; ++lane) x[lane] = lane_dot(q, k, head_dim, lane);
  for (int offset = kAttnWarp / 2; offset > 0; offset /= 2) {
    float next[kAttnWarp];
    for (int lane = 0; lane < kAttnWarp; ++lane)
      next[lane] = detail::add_rn(x[lane], x[lane ^ offset]);
    for (int lane = 0; lane < kAttnWarp; ++lane) x[lane] = next[lane];
  }
  return x[0];
}
#endif

}  // namespace osvs
