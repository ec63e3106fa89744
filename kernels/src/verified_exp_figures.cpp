// The build check of the exp figures: every documented accuracy in exp.h and portable_exp.h
// (the figures osvs::kexp_max_ulp gives the bounds) against the exhaustive measurement committed in
// reports/exp/verified.json (generated into osvs/kernels/exp_measured.h at configure time).
// A figure the measurement exceeds fails this file's compilation, and with it osvs_kernels,
// naming the worst input; so does an exp without an exhaustive measurement, or one measured
// against another slope than the one declared. The measured maxima are within 2^-15 ulp of the
// exact ones (exhaustive/src/exact_exp.cpp); the worst inputs' errors are recomputed in MPFR.
#include "osvs/kernels/exp.h"
#include "osvs/kernels/exp_figures.h"
#include "osvs/kernels/exp_measured.h"
#include "osvs/kernels/portable_exp.h"

#define OSVS_CHECK_EXP_FIGURE(name, constant, slope)                                         \
  static_assert(::osvs::measured::name.present, #name                                        \
                ": no exhaustive measurement in reports/exp/verified.json "                  \
                "(run osvs_exp_check on every input, exhaustive/README.md)");                \
  static_assert(::osvs::measured::name.ulp_per_abs_x == (slope),                             \
                #name ": measured against another ulp_per_abs_x than declared: re-measure"); \
  static_assert(::osvs::measured::name.needed_max_ulp <= (constant),                         \
                #name " exceeds the declared " #constant                                     \
                      "; counterexample: " OSVS_MEASURED_WORST_##name)

namespace osvs {

OSVS_CHECK_EXP_FIGURE(glibc_expf, GLIBC_EXPF_MAX_ULP, 0.0);
OSVS_CHECK_EXP_FIGURE(glibc_exp2f, GLIBC_EXP2F_MAX_ULP, 0.0);
OSVS_CHECK_EXP_FIGURE(portable_expf_host, PORTABLE_EXP_MAX_ULP, 0.0);
OSVS_CHECK_EXP_FIGURE(cuda_expf, CUDA_EXPF_MAX_ULP, 0.0);
OSVS_CHECK_EXP_FIGURE(cuda_exp2f, CUDA_EXP2F_MAX_ULP, 0.0);
OSVS_CHECK_EXP_FIGURE(cuda_fast_expf, CUDA_FAST_EXPF_MAX_ULP, CUDA_FAST_EXPF_ULP_PER_ABS_X);
OSVS_CHECK_EXP_FIGURE(portable_expf_device, PORTABLE_EXP_MAX_ULP, 0.0);

const char* exp_figures_hold_for() {
  return OSVS_MEASURED_HOLDS_FOR;
}

}  // namespace osvs
