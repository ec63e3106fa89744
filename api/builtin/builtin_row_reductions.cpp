// osvs's reference logsumexp, LayerNorm, RMSNorm, mean / variance, cross-entropy (per row, its
// batch mean and sum), argmax and top-k registered as row-wise kernels, in f32 and bf16
// (builtin_row_reductions.h).
#include "builtin_row_reductions.h"

#include "reference_rowwise_registration.h"

#define OSVS_REFERENCE_ROW_KERNELS(id, name, op) \
  OSVS_REGISTER_REFERENCE_F32_BF16(osvs::builtin::reference_row_kernel, id, name, op)

OSVS_REFERENCE_ROW_KERNELS(osvs_logsumexp_row, "osvs.logsumexp_row", Logsumexp)
OSVS_REFERENCE_ROW_KERNELS(osvs_layer_norm, "osvs.layer_norm", LayerNorm)
OSVS_REFERENCE_ROW_KERNELS(osvs_rms_norm, "osvs.rms_norm", RmsNorm)
// (the unbiased variance, f32 only, between mean_var's f32 and bf16 entries: the registration
// order, which every listing of the registry follows, as before)
OSVS_REGISTER_REFERENCE(osvs::builtin::reference_row_kernel, osvs_mean_var, "osvs.mean_var",
                        MeanVar, F32)
OSVS_REGISTER_REFERENCE(osvs::builtin::reference_row_kernel, osvs_mean_var_unbiased,
                        "osvs.mean_var_unbiased", MeanVarUnbiased, F32)
OSVS_REGISTER_REFERENCE(osvs::builtin::reference_row_kernel, osvs_mean_var_bf16,
                        "osvs.mean_var.bf16", MeanVar, BF16)
OSVS_REFERENCE_ROW_KERNELS(osvs_cross_entropy, "osvs.cross_entropy", CrossEntropy)
OSVS_REFERENCE_ROW_KERNELS(osvs_cross_entropy_mean, "osvs.cross_entropy_mean", CrossEntropyMean)
OSVS_REFERENCE_ROW_KERNELS(osvs_cross_entropy_sum, "osvs.cross_entropy_sum", CrossEntropySum)
OSVS_REFERENCE_ROW_KERNELS(osvs_argmax, "osvs.argmax", Argmax)
OSVS_REFERENCE_ROW_KERNELS(osvs_topk, "osvs.topk", TopK)
