// One thread's work in example::merge_attn_states, for the device kernel and the host loop alike.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define EXAMPLE_HD __host__ __device__ inline
#else
#define EXAMPLE_HD inline
#endif

namespace example {

/// Components per thread.
constexpr int kPack = 4;

// Roundings written out, so that nvcc does not fuse o_p * w_p + o_s * w_s into one fma (which
// would round the two products differently and make the merge depend on the operands' order).
EXAMPLE_HD float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
EXAMPLE_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
EXAMPLE_HD float exp_b(float x, bool base2) {
  return base2 ? exp2f(x) : expf(x);
}
EXAMPLE_HD float log_b(float x, bool base2) {
  return base2 ? log2f(x) : logf(x);
}
EXAMPLE_HD float canonical_nan() {
#if defined(__CUDA_ARCH__)
  return __int_as_float(0x7fc00000);
#else
  const std::uint32_t bits = 0x7fc00000u;
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
#endif
}

/// Components [first, first + kPack) of row `row` (= token * num_heads + head); the thread of
/// the row's first pack writes its lse.
EXAMPLE_HD void merge_pack(float* out, float* out_lse, const float* p_out, const float* p_lse,
                           const float* s_out, const float* s_lse, std::int64_t row, int head_size,
                           int first, bool base2) {
  const float inf = INFINITY, pl = p_lse[row], sl = s_lse[row];
  const std::int64_t o = row * head_size;
  const int end = first + kPack < head_size ? first + kPack : head_size;
  float lse;
  if (pl != pl || sl != sl || pl == inf || sl == inf) {  // the canonical NaN row
    lse = canonical_nan();
    for (int c = first; c < end; ++c) out[o + c] = lse;
  } else if (pl == -inf || sl == -inf) {  // an empty partial: the other one, bit for bit
    const bool p_empty = pl == -inf, both = p_empty && sl == -inf;
    lse = p_empty ? sl : pl;
    for (int c = first; c < end; ++c) out[o + c] = both ? 0.0f : (p_empty ? s_out : p_out)[o + c];
  } else {
    const float m = fmaxf(pl, sl);
    const float p_se = exp_b(pl - m, base2), s_se = exp_b(sl - m, base2);
    const float out_se = add_rn(p_se, s_se);
    lse = add_rn(m, log_b(out_se, base2));
    const float p_scale = p_se / out_se, s_scale = s_se / out_se;
    for (int c = first; c < end; ++c) {
      const float x = add_rn(mul_rn(p_out[o + c], p_scale), mul_rn(s_out[o + c], s_scale));
      out[o + c] = x != x ? canonical_nan() : x;
    }
  }
  if (first == 0) out_lse[row] = lse;
}

}  // namespace example
