// The base of an attention lse and the exp / log the attention kernels call in that base.
//
// Engines exchange partial attention results as (lse, o). Some store lse = log(sum e^s) (base e),
// others log2(sum 2^(s log2 e)) (base 2, with exp2 in the inner loop and the scores pre-scaled by
// log2(e)); a merge kernel takes a flag saying which. Every attention kernel and its CPU model
// computes in the base it was asked for, through lse_exp / lse_log below, so a base-2 lse is never
// converted to base e on the way (docs/semantics.md §8).
//
//   default build      device: CUDA expf / exp2f / logf / log2f; host: glibc's (the CPU model)
//   OSVS_PORTABLE_EXP  portable_expf / portable_exp2f / portable_logf / portable_log2f on both
//                      sides: the CPU model equals the GPU bit for bit.
//
// Accuracies, for the bounds (oracle/src/attention_bounds.cpp): CUDA Programming Guide, table
// "Single-Precision Mathematical Standard Library Functions": expf 2, exp2f 2, logf 1, log2f 1
// ulp; glibc manual, "Errors in Math Functions" (x86_64): 1 ulp for each; the portable functions'
// exhaustively measured constants (portable_exp.h, portable_log.h).
#pragma once

#include <optional>
#include <string_view>

#include "osvs/kernels/enum_names.h"
#include "osvs/kernels/exp.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_log.h"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace osvs {

/// The base of lse: e (lse = log sum e^s) or 2 (lse = log2 sum 2^s', s' = s log2 e).
enum class LseBase { E, Two };

inline constexpr EnumName<LseBase> kLseBaseNames[] = {{LseBase::E, "e"}, {LseBase::Two, "2"}};

inline const char* to_string(LseBase b) {
  return name_in(kLseBaseNames, b);
}

inline std::optional<LseBase> parse_lse_base(std::string_view s) {
  return value_in(kLseBaseNames, s);
}

/// log2(e) rounded to float: the factor a base-2 kernel folds into its score scale.
inline constexpr float kLog2eF = 1.44269502162933349609375f;

/// b^x in the kernels' base.
OSVS_HD float lse_exp(LseBase base, float x) {
  if (base == LseBase::E) return kexp(x);
#if defined(OSVS_PORTABLE_EXP)
  return portable_exp2f(x);
#elif defined(__CUDA_ARCH__)
  return exp2f(x);
#else
  return std::exp2(x);
#endif
}

/// log_b(x) in the kernels' base.
OSVS_HD float lse_log(LseBase base, float x) {
#if defined(OSVS_PORTABLE_EXP)
  return base == LseBase::E ? portable_logf(x) : portable_log2f(x);
#elif defined(__CUDA_ARCH__)
  return base == LseBase::E ? logf(x) : log2f(x);
#else
  return base == LseBase::E ? std::log(x) : std::log2(x);
#endif
}

/// Documented accuracy of CUDA's logf, log2f (ulps). exp2f's figure is exp.h's, verified on every
/// float input (CUDA_EXP2F_MAX_ULP, GLIBC_EXP2F_MAX_ULP: the documented 2 ulp of CUDA's is
/// exceeded on subnormal results, so the bounds use the measured-safe 2.5).
inline constexpr double CUDA_LOGF_MAX_ULP = 1.0;
inline constexpr double CUDA_LOG2F_MAX_ULP = 1.0;
/// Documented accuracy of glibc's logf, log2f on x86-64 (ulps).
inline constexpr double GLIBC_LOGF_MAX_ULP = 1.0;
inline constexpr double GLIBC_LOG2F_MAX_ULP = 1.0;

/// Accuracy of lse_exp on the device (gpu = true) or in the CPU model.
inline constexpr double lse_exp_max_ulp(LseBase base, bool gpu) {
  if (base == LseBase::E) return kexp_max_ulp(gpu);
  return kPortableExp ? PORTABLE_EXP2_MAX_ULP : (gpu ? CUDA_EXP2F_MAX_ULP : GLIBC_EXP2F_MAX_ULP);
}

/// Accuracy of lse_log on the device (gpu = true) or in the CPU model.
inline constexpr double lse_log_max_ulp(LseBase base, bool gpu) {
  if (base == LseBase::E)
    return kPortableExp ? PORTABLE_LOG_MAX_ULP : (gpu ? CUDA_LOGF_MAX_ULP : GLIBC_LOGF_MAX_ULP);
  return kPortableExp ? PORTABLE_LOG2_MAX_ULP : (gpu ? CUDA_LOG2F_MAX_ULP : GLIBC_LOG2F_MAX_ULP);
}

}  // namespace osvs
