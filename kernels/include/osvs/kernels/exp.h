// kexp: the exp every kernel calls, chosen once for the whole build.
//
//   default build         device: CUDA expf (max error 2 ulp, CUDA Programming Guide, Table
//                         "Single-Precision Mathematical Standard Library Functions");
//                         host:   glibc expf (the CPU model; < 1 ulp per the glibc manual).
//   OSVS_PORTABLE_EXP     portable_expf on both sides: the CPU model equals the GPU bit for bit.
//
// The accuracy of the exp in force is exported as kexp_max_ulp(executor side) so that bounds are
// computed for the primitive actually used, never retyped.
#pragma once

#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_exp.h"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace osvs {

/// True when the build uses portable_expf in every kernel.
#if defined(OSVS_PORTABLE_EXP)
inline constexpr bool kPortableExp = true;
#else
inline constexpr bool kPortableExp = false;
#endif

/// The exp used by the kernels under test.
OSVS_HD float kexp(float x) {
#if defined(OSVS_PORTABLE_EXP)
  return portable_expf(x);
#elif defined(__CUDA_ARCH__)
  return expf(x);
#else
  return std::exp(x);
#endif
}

/// Documented accuracy (ulps, subnormal ulp 2^-149) of CUDA's expf.
inline constexpr double CUDA_EXPF_MAX_ULP = 2.0;
/// Documented accuracy of glibc's expf on x86-64 (glibc manual, "Errors in Math Functions": 1 ulp).
inline constexpr double GLIBC_EXPF_MAX_ULP = 1.0;

/// Accuracy of kexp on the device (gpu = true) or in the CPU model (gpu = false).
inline constexpr double kexp_max_ulp(bool gpu) {
  return kPortableExp ? PORTABLE_EXP_MAX_ULP : (gpu ? CUDA_EXPF_MAX_ULP : GLIBC_EXPF_MAX_ULP);
}

}  // namespace osvs
