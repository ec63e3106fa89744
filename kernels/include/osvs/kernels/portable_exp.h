// portable_expf: one fma-based exp, compiled identically for host and device.
//
// With the build option OSVS_PORTABLE_EXP every kernel uses this function instead of expf, and the
// CPU model then reproduces the GPU bit for bit: each step below is an IEEE binary32 operation
// (fmaf, *, -) with round-to-nearest, which both sides implement exactly alike. Nothing here relies
// on the compiler: the host build uses -ffp-contract=off and every fused operation is written out.
//
// Accuracy: PORTABLE_EXP_MAX_ULP (below) is the largest error over EVERY binary32 input, measured
// by exhaustive enumeration against a double-precision exp (test
// kernels/tests/portable_exp_test.cpp, which re-runs the enumeration); a univariate binary32
// function has no other inputs, so the enumeration is the proof. The error model per step:
//   k  = round(x * log2(e))                   magic-number rounding, exact integer, |k| <= 150
//   r  = x - k*ln2_hi                           exact: ln2_hi has 12 significant bits, k <= 8 bits
//   r  = r - k*ln2_lo                           one rounding, |r| <= 0.3466, error <= 2^-25 |r|
//   p  = Taylor degree 7 of e^r by Horner/fma  truncation < 5.3e-9, 7 roundings in [0.7, 1.42]
//   y  = p * 2^k                               exact for -86 <= x <= 88 (an exponent-field add);
//                                             else p * 2^k1 * 2^k2, k1 + k2 = k: the first
//                                             product exact, the second rounds once (subnormal)
#pragma once

#include "osvs/kernels/hd.h"
#include "osvs/kernels/rounded_ops.h"

namespace osvs {

/// Largest error of portable_expf in ulps of the exact result over all binary32 inputs, with the
/// ulp of a subnormal result being 2^-149. Established by exhaustive enumeration (see above).
inline constexpr double PORTABLE_EXP_MAX_ULP = 1.0;  // measured max 0.9386 at 0x1.ab05d2p+4

namespace detail {
/// 2^k for -126 <= k <= 127 as a float, from its bits.
OSVS_HD float pow2_normal(int k) {
  return bits_float(static_cast<std::uint32_t>(k + 127) << 23);
}
/// portable_expf's general path: NaN, overflow, underflow, then p * 2^k as two exact scalings
/// of which the second may round once (a subnormal result). Out of line on the device: rarely
/// taken, and the fast kernel inlines the exp once per element it holds.
#if defined(__CUDACC__)
inline __host__ __device__ __noinline__
#else
inline
#endif
    float
    portable_expf_general(float x, float kf, float p) {
  if (x != x) return x + x;                                  // NaN propagates (quietened)
  if (x > 88.72283935546875f) return __builtin_huge_valf();  // > log(FLT_MAX): overflow
  if (x < -103.97208404541016f) return 0.0f;                 // < log(2^-150): underflow to 0
  const int k = static_cast<int>(kf);                        // -150 <= k <= 128
  const int k1 = k / 2;                                      // both halves in the normal range
  const int k2 = k - k1;
  return (p * pow2_normal(k1)) * pow2_normal(k2);  // one rounding at most
}
}  // namespace detail

/// The steps of portable_expf before its scaling: j = fl(x log2 e + 1.5 * 2^23), k = j - 1.5 * 2^23
/// (kf) and the polynomial p ~ e^(x - k ln 2).
struct PortableExpParts {
  float j, kf, p;
};
OSVS_HD PortableExpParts portable_expf_parts(float x) {
  const float shifter = 12582912.0f;  // 1.5 * 2^23: rounds to integer
  const float j = detail::fma_f(x, 1.44269502162933349609375f, shifter);
  const float kf = j - shifter;                          // k, exact
  float r = detail::fma_f(kf, -0.693145751953125f, x);   // exact (Sterbenz-like, 12-bit ln2_hi)
  r = detail::fma_f(kf, -1.428606765330187045e-06f, r);  // |r| <= 0.3466, one rounding
  float p = 1.98412701e-4f;                              // 1/7!
  p = detail::fma_f(p, r, 1.38888892e-3f);               // 1/6!
  p = detail::fma_f(p, r, 8.33333377e-3f);               // 1/5!
  p = detail::fma_f(p, r, 4.16666679e-2f);               // 1/4!
  p = detail::fma_f(p, r, 1.66666672e-1f);               // 1/3!
  p = detail::fma_f(p, r, 0.5f);                         // 1/2!
  p = detail::fma_f(p, r, 1.0f);                         // 1/1!
  p = detail::fma_f(p, r, 1.0f);                         // 1/0!: p in [0.707, 1.415]
  return {j, kf, p};
}
/// Where p 2^k is a normal float and its exponent-field form applies (see portable_expf).
OSVS_HD bool portable_expf_scales_exactly(float x) {
  return x >= -86.0f && x <= 88.0f;
}
/// p 2^k by adding k to p's exponent field: portable_expf(x) where
/// portable_expf_scales_exactly(x).
OSVS_HD float portable_expf_scaled(PortableExpParts q) {
  return bits_float(float_bits(q.p) + (float_bits(q.j) << 23));
}

/// exp(x) for binary32 with an error of at most PORTABLE_EXP_MAX_ULP ulps; exp(0) == 1 exactly,
/// exp(-inf) == 0, exp(+inf) == +inf, NaN in gives NaN out.
///
/// Two ways to form p * 2^k, the same bits wherever both apply. For -86 <= x <= 88 (the common
/// case, one comparison pair and no conversion) k = round(x log2 e) lies in [-125, 127], so p 2^k
/// (p in [0.707, 1.415]) is a normal float: adding k to p's exponent field is the exact product.
/// k is read off the shifted sum's bits: j = fl(x log2 e + 1.5 * 2^23) has ulp 1, so
/// bits(j) = 0x4B400000 + k, and bits(j) << 23 = k << 23 modulo 2^32 (0x4B400000's lowest set
/// bit is bit 22): bits(p) + (bits(j) << 23) is bits(p 2^k). Outside that range (and for NaN) the
/// general path (detail::portable_expf_general): the specials, then two exact scalings of which
/// the second may round once (a subnormal result) or overflow.
OSVS_HD float portable_expf(float x) {
  const PortableExpParts q = portable_expf_parts(x);
  if (portable_expf_scales_exactly(x)) return portable_expf_scaled(q);
  return detail::portable_expf_general(x, q.kf, q.p);
}

}  // namespace osvs
