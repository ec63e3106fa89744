// The elementary functions osvs's tiled attention kernels call (tiled_attention_row.h, and the
// backward's tiled_attention_backward_elements.h), one functor an executor:
//
//   LibraryMath   the executor's own libm: glibc's expf, logf and tanhf on the host (the host
//                 entry, bits unchanged from before the loop was shared), CUDA's expf, logf and
//                 tanhf on the device (the device entry). Where they differ in accuracy:
//                   expf   glibc 1 ulp (GLIBC_EXPF_MAX_ULP); CUDA 2 ulp (CUDA_EXPF_MAX_ULP, the
//                          CUDA Programming Guide's figure; exhaustive/ measured 1.93 ulp on the
//                          H200 over every binary32 input, reports/exp/): twice the host's.
//                   exp2f  glibc 1 ulp; CUDA 2 ulp (the guide): the backward's base-2 weights,
//                          derived with expf's figures on each executor.
//                   logf   glibc 1 ulp; CUDA 1 ulp (the guide): the same figure.
//                   tanhf  the host's derivation already charges 2 ulp; CUDA 2 ulp (the guide):
//                          the same figure.
//                 So the device's outputs are not the host's bit for bit, and its contract is
//                 derived with the 2-ulp exp (tiled_attention.h, kTiledAttentionAccuracy).
//   PortableMath  portable_expf and portable_logf (kernels/include: one IEEE operation a step,
//                 the same bits on both executors), and a tanh and an exp2 written over
//                 portable_expf: the same kernel then gives the same bits on the host and the
//                 device, which the device == host tests assert. A test instrument, not an
//                 entry: its tanh is not accurate near 0 (1 - 2 / (e^2x + 1) cancels), its exp2
//                 rounds x ln 2 first, and neither carries a figure.
#pragma once

#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_exp.h"
#include "osvs/kernels/portable_log.h"
#include "osvs/kernels/rounded_ops.h"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace osvs::builtin {

/// The executor's libm function `name` on a float: CUDA's name##f (expf ...) on the device,
/// std::name (glibc's) on the host.
#if defined(__CUDA_ARCH__)
#define OSVS_DETAIL_LIBRARY_MATH(name) name##f
#else
#define OSVS_DETAIL_LIBRARY_MATH(name) std::name
#endif

struct LibraryMath {
  OSVS_HD static float exp(float x) { return OSVS_DETAIL_LIBRARY_MATH(exp)(x); }
  OSVS_HD static float exp2(float x) { return OSVS_DETAIL_LIBRARY_MATH(exp2)(x); }
  OSVS_HD static float log(float x) { return OSVS_DETAIL_LIBRARY_MATH(log)(x); }
  OSVS_HD static float tanh(float x) { return OSVS_DETAIL_LIBRARY_MATH(tanh)(x); }
};

#undef OSVS_DETAIL_LIBRARY_MATH

struct PortableMath {
  OSVS_HD static float exp(float x) { return portable_expf(x); }
  /// e^(fl(x ln 2)), ln 2 rounded to binary32.
  OSVS_HD static float exp2(float x) { return portable_expf(detail::mul_rn(x, 0.693147182f)); }
  OSVS_HD static float log(float x) { return portable_logf(x); }
  /// sign(x) (1 - 2 / (e^(2|x|) + 1)), every step rounded once on both executors.
  OSVS_HD static float tanh(float x) {
    const float a = abs_f(x);
    const float e = portable_expf(detail::mul_rn(2.0f, a));
    const float t = detail::sub_rn(1.0f, detail::div_rn(2.0f, detail::add_rn(e, 1.0f)));
    return x < 0 ? -t : t;
  }
};

}  // namespace osvs::builtin
