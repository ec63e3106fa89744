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

// Documented accuracies (ulps of the exact result, subnormal ulp 2^-149: docs/semantics.md §4).
// None of them is taken on trust: exhaustive/ measures every binary32 input of each exp against
// the correctly rounded result, reports/exp/verified.json records the measurement and where it
// was made, and kernels/src/verified_exp_figures.cpp fails the build of osvs_kernels, naming the
// counterexample, when a measured maximum exceeds the constant below. So the figures kexp_max_ulp
// returns are verified ones: the documented constant, with a measurement inside it.

/// CUDA expf (CUDA Programming Guide, "Single-Precision Mathematical Standard Library Functions").
inline constexpr double CUDA_EXPF_MAX_ULP = 2.0;
/// CUDA exp2f. The guide documents 2 ulp; the exhaustive measurement (reports/exp/) found up to
/// 2.055 ulp of the exact result on normal results (exp2f(-0x1.1402p+0) = 0x1.e5004ap-2, correctly
/// rounded 0x1.e5004ep-2) and 2.383 on subnormal ones: two floats from the correctly rounded
/// result, which is what "2 ulp" holds to there. osvs declares that reading: 2 floats from the
/// correctly rounded result plus its half ulp, 2.5 ulp of the exact result.
inline constexpr double CUDA_EXP2F_MAX_ULP = 2.5;
/// CUDA __expf (same guide, "Intrinsic Functions"): documented 2 + floor(1.173 |x|) ulp; measured
/// up to 2.442 + floor(1.173 |x|) on normal results (__expf(-0x1.7ea17ap-1) = 0x1.e4ffa2p-2,
/// correctly rounded 0x1.e4ffa6p-2: 2.44 ulp where the formula gives 2). Declared with the same
/// reading as exp2f: 2.5 + floor(1.173 |x|), normal results (the subnormal ones, x < -87.3,
/// measured at most 31.4 ulp, lie far inside 2.5 + floor(1.173 * 87.3) = 104.5).
inline constexpr double CUDA_FAST_EXPF_MAX_ULP = 2.5;
inline constexpr double CUDA_FAST_EXPF_ULP_PER_ABS_X = 1.173;
/// glibc expf on x86-64 (glibc manual, "Errors in Math Functions": 1 ulp).
inline constexpr double GLIBC_EXPF_MAX_ULP = 1.0;
/// glibc exp2f on x86-64 (same table: 1 ulp); the host side of exp2f-based combines.
inline constexpr double GLIBC_EXP2F_MAX_ULP = 1.0;

/// Accuracy of kexp on the device (gpu = true) or in the CPU model (gpu = false).
inline constexpr double kexp_max_ulp(bool gpu) {
  return kPortableExp ? PORTABLE_EXP_MAX_ULP : (gpu ? CUDA_EXPF_MAX_ULP : GLIBC_EXPF_MAX_ULP);
}

}  // namespace osvs
