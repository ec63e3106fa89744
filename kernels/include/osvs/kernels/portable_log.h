// portable_logf, portable_log2f, portable_exp2f: fma-based log, log2 and exp2, compiled
// identically for host and device (the companions of portable_expf for the attention kernels,
// whose lse = m + log(d) and base-2 merges need them).
//
// With OSVS_PORTABLE_EXP every attention kernel calls these instead of logf / log2f / exp2f, and
// the CPU model reproduces the GPU bit for bit: each step is one IEEE binary32 operation written
// out (fma_f, mul_rn, add_rn, div_rn), which nvcc may not contract or reorder.
//
// Accuracy (ulps of the exact result; subnormal ulp 2^-149): the constants below bound the error
// on EVERY binary32 input the attention kernels pass (log and log2 of d >= 1 below 2^32; exp2 of
// small - big <= 0 above -150), enumerated against double-precision log / log2 / exp2 by
// kernels/tests/portable_log_test.cpp (test `kernels.attention_math_exhaustive`, about 30 s on 2
// cores); a univariate binary32 function has no other inputs. Over the whole domains (every
// positive float; every float in (-150, 128)) the maxima, enumerated once, are 0.8348 (log, at
// 0x1.67cc32p+0), 0.8949 (log2, at 0x1.674306p-1) and 0.9133 (exp2, at -0x1.f9f5e2p+6), and every
// 997th float of them is re-checked in CI (`kernels.attention`).
//
// log: the reduction of musl's logf (x = 2^k (1 + f), 1 + f in [sqrt(2)/2, sqrt(2)], exact),
//   s = f / (2 + f), log(1 + f) = f - hfsq + s (hfsq + R(s^2)), hfsq = f^2 / 2, with musl's
//   degree-4 minimax R (error below 2^-34 on the range); k ln2 added last, k ln2_hi (the leading
//   17 bits of ln 2) by one fma onto the body, k ln2_lo folded into the small part first.
// log2: the same log(1 + f) times log2(e) (as a hi + lo pair), plus k, exact integer, last.
// exp2: x = k + r with k = round(x) (exact), |r| <= 1/2, 2^r = e^(r ln2) by a degree-7 Taylor
//   polynomial in r (coefficients ln2^i / i!, truncation < 5.3e-9), then two exact-or-once-rounded
//   power-of-two scalings as in portable_expf.
#pragma once

#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_exp.h"
#include "osvs/kernels/rounded_ops.h"

namespace osvs {

/// Largest errors in ulps (see above for the inputs and the measured maxima).
inline constexpr double PORTABLE_LOG_MAX_ULP = 1.0;
inline constexpr double PORTABLE_LOG2_MAX_ULP = 1.0;
inline constexpr double PORTABLE_EXP2_MAX_ULP = 1.0;

namespace detail {

/// For x positive, finite and normal after scaling: x = 2^k (1 + f), 1 + f in [sqrt(2)/2,
/// sqrt(2)]; returns log(1 + f) split as (f - hfsq) + tail, with tail the small part.
struct LogParts {
  int k;
  float f;
  float hfsq;
  float tail;  ///< s (hfsq + R)
};

OSVS_HD LogParts log_parts(float x) {
  int k = 0;
  if (x < 0x1p-126f) {  // subnormal: scale into the normal range, exactly
    x = mul_rn(x, 0x1p25f);
    k = -25;
  }
  std::uint32_t ix = float_bits(x);
  ix += 0x3f800000u - 0x3f3504f3u;  // move sqrt(2)/2 to the bottom of a binade
  k += static_cast<int>(ix >> 23) - 0x7f;
  ix = (ix & 0x007fffffu) + 0x3f3504f3u;
  const float f = sub_rn(bits_float(ix), 1.0f);  // exact: 1 + f in [0.7071, 1.4143)
  const float s = div_rn(f, add_rn(2.0f, f));
  const float z = mul_rn(s, s);
  const float w = mul_rn(z, z);
  const float t1 = mul_rn(w, fma_f(w, 0xf89e26.0p-26f, 0xccce13.0p-25f));
  const float t2 = mul_rn(z, fma_f(w, 0x91e9ee.0p-25f, 0xaaaaaa.0p-24f));
  const float r = add_rn(t2, t1);
  const float hfsq = mul_rn(mul_rn(0.5f, f), f);
  return LogParts{k, f, hfsq, mul_rn(s, add_rn(hfsq, r))};
}

/// The inputs where log and log2 agree, outside the polynomial: true with *result = NaN (x's
/// payload, quieted) for NaN, the canonical NaN for x < 0, -inf for +-0 and +inf for +inf; false
/// for a positive finite x.
OSVS_HD bool log_special(float x, float* result) {
  if (x != x) return *result = x + x, true;
  if (x < 0.0f) return *result = canonical_nan(), true;
  if (x == 0.0f) return *result = -__builtin_huge_valf(), true;
  if (x == __builtin_huge_valf()) return *result = x, true;
  return false;
}

}  // namespace detail

/// log(x) within PORTABLE_LOG_MAX_ULP; log(1) == +0 exactly, log(+0) == -inf, log(+inf) == +inf,
/// log(x < 0) and log(NaN) are NaN.
OSVS_HD float portable_logf(float x) {
  float special;
  if (detail::log_special(x, &special)) return special;
  const detail::LogParts p = detail::log_parts(x);
  const float dk = static_cast<float>(p.k);
  const float ln2_hi = 6.9313812256e-01f;  // 0x3f317180: the leading 17 bits of ln 2
  const float ln2_lo = 9.0580006145e-06f;
  const float small = detail::fma_f(dk, ln2_lo, p.tail);
  const float body = detail::add_rn(detail::sub_rn(small, p.hfsq), p.f);
  return detail::fma_f(dk, ln2_hi, body);
}

/// log2(x) within PORTABLE_LOG2_MAX_ULP; log2(2^k) == k exactly; specials as portable_logf.
OSVS_HD float portable_log2f(float x) {
  float special;
  if (detail::log_special(x, &special)) return special;
  const detail::LogParts p = detail::log_parts(x);
  const float log2e_hi = 1.4426950216e+00f;  // float(log2 e)
  const float log2e_lo = 1.9259629e-08f;     // log2 e - log2e_hi
  // l = log(1 + f) = (f - hfsq) + tail; log2(1 + f) = l * log2e, with the product of the rounded
  // hi part and log2e_hi exact-or-once-rounded via fma.
  const float hi = detail::sub_rn(p.f, p.hfsq);
  const float lo = detail::add_rn(detail::sub_rn(detail::sub_rn(p.f, hi), p.hfsq), p.tail);
  const float cross = detail::fma_f(lo, log2e_hi, detail::mul_rn(detail::add_rn(hi, lo), log2e_lo));
  const float frac = detail::fma_f(hi, log2e_hi, cross);
  return detail::add_rn(static_cast<float>(p.k), frac);
}

/// 2^x within PORTABLE_EXP2_MAX_ULP; exp2(0) == 1 exactly, exp2(-inf) == 0, exp2(+inf) == +inf.
OSVS_HD float portable_exp2f(float x) {
  if (x != x) return x + x;
  if (x >= 128.0f) return __builtin_huge_valf();
  if (x < -150.0f) return 0.0f;       // below 2^-150: rounds to 0
  const float shifter = 12582912.0f;  // 1.5 * 2^23
  const float kf = detail::sub_rn(detail::add_rn(x, shifter), shifter);  // round(x), exact
  const float r = detail::sub_rn(x, kf);                                 // exact, |r| <= 1/2
  float p = 1.5252734e-05f;                                              // ln2^7 / 7!
  p = detail::fma_f(p, r, 1.5403530e-04f);                               // ln2^6 / 6!
  p = detail::fma_f(p, r, 1.3333558e-03f);                               // ln2^5 / 5!
  p = detail::fma_f(p, r, 9.6181291e-03f);                               // ln2^4 / 4!
  p = detail::fma_f(p, r, 5.5504109e-02f);                               // ln2^3 / 3!
  p = detail::fma_f(p, r, 2.4022651e-01f);                               // ln2^2 / 2!
  p = detail::fma_f(p, r, 6.9314718e-01f);                               // ln2
  p = detail::fma_f(p, r, 1.0f);                                         // p in [0.707, 1.415]
  const int k = static_cast<int>(kf);                                    // -150 <= k <= 127
  const int k1 = k / 2;
  const int k2 = k - k1;
  return detail::mul_rn(detail::mul_rn(p, detail::pow2_normal(k1)), detail::pow2_normal(k2));
}

}  // namespace osvs
