// osvs's reference logsumexp, LayerNorm, RMSNorm, mean / variance, cross-entropy (per row, its
// batch mean and sum), argmax and top-k registered as row-wise kernels, in f32 and bf16
// (builtin_row_reductions.h).
#include "builtin_row_reductions.h"

#define OSVS_REFERENCE_ROW_KERNEL(id, name, op, type)                                         \
  OSVS_REGISTER_ROWWISE_KERNEL(id) {                                                          \
    return osvs::builtin::reference_row_kernel(name, osvs::RowwiseOp::op, osvs::DType::type); \
  }

OSVS_REFERENCE_ROW_KERNEL(osvs_logsumexp_row, "osvs.logsumexp_row", Logsumexp, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_logsumexp_row_bf16, "osvs.logsumexp_row.bf16", Logsumexp, BF16)
OSVS_REFERENCE_ROW_KERNEL(osvs_layer_norm, "osvs.layer_norm", LayerNorm, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_layer_norm_bf16, "osvs.layer_norm.bf16", LayerNorm, BF16)
OSVS_REFERENCE_ROW_KERNEL(osvs_rms_norm, "osvs.rms_norm", RmsNorm, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_rms_norm_bf16, "osvs.rms_norm.bf16", RmsNorm, BF16)
OSVS_REFERENCE_ROW_KERNEL(osvs_mean_var, "osvs.mean_var", MeanVar, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_mean_var_unbiased, "osvs.mean_var_unbiased", MeanVarUnbiased, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_mean_var_bf16, "osvs.mean_var.bf16", MeanVar, BF16)
OSVS_REFERENCE_ROW_KERNEL(osvs_cross_entropy, "osvs.cross_entropy", CrossEntropy, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_cross_entropy_bf16, "osvs.cross_entropy.bf16", CrossEntropy, BF16)
OSVS_REFERENCE_ROW_KERNEL(osvs_cross_entropy_mean, "osvs.cross_entropy_mean", CrossEntropyMean, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_cross_entropy_mean_bf16, "osvs.cross_entropy_mean.bf16",
                          CrossEntropyMean, BF16)
OSVS_REFERENCE_ROW_KERNEL(osvs_cross_entropy_sum, "osvs.cross_entropy_sum", CrossEntropySum, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_cross_entropy_sum_bf16, "osvs.cross_entropy_sum.bf16",
                          CrossEntropySum, BF16)
OSVS_REFERENCE_ROW_KERNEL(osvs_argmax, "osvs.argmax", Argmax, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_argmax_bf16, "osvs.argmax.bf16", Argmax, BF16)
OSVS_REFERENCE_ROW_KERNEL(osvs_topk, "osvs.topk", TopK, F32)
OSVS_REFERENCE_ROW_KERNEL(osvs_topk_bf16, "osvs.topk.bf16", TopK, BF16)
