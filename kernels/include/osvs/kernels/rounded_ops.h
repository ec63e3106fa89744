// Binary32 operations written out so that host and device compute the same bits: each rounded
// once and never fused with a neighbour (nvcc's __f*_rn intrinsics on the device; the host builds
// with -ffp-contract=off), and TwoSum's exact error. Shared by the portable log / exp2, the
// attention kernels, the fast kernel's compensated sums and the oracle's double-double.
#pragma once

#include "osvs/kernels/hd.h"

namespace osvs {
namespace detail {

/// Binary32 operations that nvcc never fuses with a neighbour.
OSVS_HD float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
OSVS_HD float sub_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
OSVS_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
OSVS_HD float div_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
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

}  // namespace osvs
