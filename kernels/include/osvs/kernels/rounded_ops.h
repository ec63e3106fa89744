// Binary32 operations written out so that host and device compute the same bits: each rounded
// once and never fused with a neighbour (nvcc's __f*_rn intrinsics on the device; the host builds
// with -ffp-contract=off), TwoSum's exact error and ErrFma's (the error of an fma). Shared by the
// portable log / exp2, the attention kernels, the fast kernel's compensated sums and the oracle's
// double-double.
#pragma once

#include <type_traits>

#include "osvs/kernels/hd.h"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace osvs {
namespace detail {

/// Operations that nvcc never fuses with a neighbour. fma(a, b, c) rounded once, on both sides:
OSVS_HD float fma_f(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// a op b rounded once to nearest even: on the device the named intrinsic, which nvcc never fuses
// with a neighbour; on the host the operator (the host builds with -ffp-contract=off).
#if defined(__CUDA_ARCH__)
#define OSVS_ROUNDED_ONCE(device_intrinsic, a, op, b) device_intrinsic(a, b)
#else
#define OSVS_ROUNDED_ONCE(device_intrinsic, a, op, b) ((a)op(b))
#endif

/// a + b rounded once: binary32 in the kernels, binary64 in the fast kernel's partial sums.
template <class T>
OSVS_HD T add_rn(T a, T b) {
  if constexpr (sizeof(T) == sizeof(double))
    return OSVS_ROUNDED_ONCE(__dadd_rn, a, +, b);
  else
    return OSVS_ROUNDED_ONCE(__fadd_rn, a, +, b);
}
OSVS_HD float sub_rn(float a, float b) {
  return OSVS_ROUNDED_ONCE(__fsub_rn, a, -, b);
}
OSVS_HD float mul_rn(float a, float b) {
  return OSVS_ROUNDED_ONCE(__fmul_rn, a, *, b);
}
OSVS_HD float div_rn(float a, float b) {
  return OSVS_ROUNDED_ONCE(__fdiv_rn, a, /, b);
}
/// The same in binary64 (narrow_float.h's products and quotients of bf16 / fp16 values).
OSVS_HD double mul_rn(double a, double b) {
  return OSVS_ROUNDED_ONCE(__dmul_rn, a, *, b);
}
OSVS_HD double div_rn(double a, double b) {
  return OSVS_ROUNDED_ONCE(__ddiv_rn, a, /, b);
}

#undef OSVS_ROUNDED_ONCE

/// sub_rn and div_rn over a scalar class type: formal/'s symbolic binary32 (formal/README.md),
/// whose operators round once to nearest even, so that code written over its scalar (the
/// attention merge's steps) instantiates with it. Never chosen for float or double: the
/// overloads above are. (SFINAE, not a requires-clause: the public headers stay C++17, as a
/// consumer project may compile them.)
template <class F, std::enable_if_t<std::is_class_v<F>, int> = 0>
F sub_rn(F a, F b) {
  return a - b;
}
template <class F, std::enable_if_t<std::is_class_v<F>, int> = 0>
F div_rn(F a, F b) {
  return a / b;
}

}  // namespace detail

/// The exact error (a + b) - s of s = fl(a + b) (Knuth's TwoSum, TAOCP vol. 2, 4.2.2: six IEEE
/// operations, no branch), for finite a, b with s finite; binary32 in the kernels, binary64 in
/// the oracle's double-double arithmetic.
template <class T>
OSVS_HD T two_sum_error(T a, T b, T s) {
  const T b1 = s - a;   // the part of b that made it into s
  const T a1 = s - b1;  // the part of a that made it into s
  return (a - a1) + (b - b1);
}

/// fl(a b + c) - r's complement: the error (a b + c) - r of r, an fl(a b + c) rounded once (an
/// fma) or twice (a product, then a sum), for a, b, c >= 0 and finite, as one float (Boldo and
/// Muller's ErrFma, its last two parts added):
///   u1 = fl(a b), u2 = a b - u1 exactly (fma)          a b = u1 + u2
///   alpha1 = fl(c + u2), z = (c + u2) - alpha1 (TwoSum)  c + u2 = alpha1 + z
///   beta1 = fl(u1 + alpha1), beta2 = the rest (TwoSum)   u1 + alpha1 = beta1 + beta2
///   so  a b + c - r = (beta1 - r) + beta2 + z  exactly (u2 is exact unless a b lies below the
///   normal range: then 2^-150 more, which the accounting adds), and
///   gamma = fl(beta1 - r) exact (Sterbenz: beta1 and r are within a factor 2, both within
///   2 u (1 + u) of a b + c >= 0), the result fl(fl(gamma + beta2) + z) two roundings of
///   quantities of size u (a b + c): its error is below 16 u^2 (a b + c) (the accounting:
///   oracle/src/fast_error_algebra.h, AccMergeAlg).
OSVS_HD float fma_error(float a, float b, float c, float r) {
  const float u1 = detail::mul_rn(a, b);
  const float u2 = detail::fma_f(a, b, -u1);
  const float alpha1 = c + u2;
  const float z = two_sum_error(c, u2, alpha1);
  const float beta1 = u1 + alpha1;
  const float beta2 = two_sum_error(u1, alpha1, beta1);
  return ((beta1 - r) + beta2) + z;
}

}  // namespace osvs
