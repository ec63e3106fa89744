// Elementary operations whose device behaviour the CPU model must reproduce bit for bit.
//
// fmax_k: CUDA's fmaxf (PTX max.f32): a NaN operand is ignored, and -0 orders below +0. The host
// version spells out the same rule instead of trusting libm, whose choice for (+0, -0) is
// unspecified.
//
// mul_add_k(a, b, c, d) = a*b + c*d as the kernels write it. nvcc (--fmad=true, its default)
// emits `mul.f32 t, c, d; fma.rn.f32 r, a, b, t` for this expression (read from the PTX of the
// seed combine, kernels/README.md), i.e. it keeps the RIGHT product rounded and fuses the LEFT
// one. The CPU model contracts the same product the same way when OSVS_MODEL_FMAD is 1, so that
// any asymmetry the contraction causes on the GPU also shows on the host.
#pragma once

#include "osvs/kernels/hd.h"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

#if !defined(OSVS_MODEL_FMAD)
#define OSVS_MODEL_FMAD 1
#endif

namespace osvs {

#if !defined(__CUDA_ARCH__)
namespace detail {
/// fmaxf's rule, written over the scalar F (float here; formal/ instantiates it symbolically).
template <class F>
inline F fmax_rule(F a, F b) {
  using std::signbit;
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return signbit(a) ? b : a;  // (+0, -0) -> +0
  return a > b ? a : b;
}
}  // namespace detail
#endif

OSVS_HD float fmax_k(float a, float b) {
#if defined(__CUDA_ARCH__)
  return fmaxf(a, b);
#else
  return detail::fmax_rule(a, b);
#endif
}

/// a*b + c*d exactly as the kernels' source writes it, with the device's contraction.
OSVS_HD float mul_add_k(float a, float b, float c, float d) {
#if defined(__CUDA_ARCH__)
  return a * b + c * d;
#elif OSVS_MODEL_FMAD
  return std::fma(a, b, c * d);
#else
  return a * b + c * d;
#endif
}

/// a*b + c as the kernels write it (contracted to one fma on the device by default).
OSVS_HD float mul_add_k(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return a * b + c;
#elif OSVS_MODEL_FMAD
  return std::fma(a, b, c);
#else
  return a * b + c;
#endif
}

}  // namespace osvs
