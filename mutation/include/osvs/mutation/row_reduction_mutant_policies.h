// The row reduction mutants' policies: each is RowReductionAsWritten
// (kernels/include/osvs/kernels/row_reductions.h) with one step changed, a bug a logsumexp,
// LayerNorm, RMSNorm, cross-entropy (per row or over the batch), argmax or top-k kernel can
// ship. The reference kernels' own
// templates instantiate them (api/builtin/builtin_row_reductions.h);
// api/tests/softmax_backward_mutants_test.cpp holds each to the row-wise laws, declared as its
// original is.
#pragma once

#include "osvs/kernels/row_reductions.h"

namespace osvs::mutation {

/// logsumexp without the max subtracted: exp(x) overflows binary32 past x = 88.7.
struct LseWithoutMax : RowReductionAsWritten {
  static constexpr bool subtract_max = false;
};

/// logsumexp of a row of -inf computed as -inf - (-inf): NaN instead of -inf.
struct LseEmptyRowNan : RowReductionAsWritten {
  static constexpr bool guard_empty_row = false;
};

/// LayerNorm's variance as E[x^2] - mu^2 in binary32: cancels at a mean large against the
/// spread (and goes negative: NaN once below -eps).
struct OnePassVariance : RowReductionAsWritten {
  static constexpr bool variance_of_deviations = false;
};

/// LayerNorm's variance, RMSNorm's mean square and var_mean's biased variance divided by n - 1
/// (torch.var's default), not n.
struct UnbiasedVariance : RowReductionAsWritten {
  static constexpr bool biased_variance = false;
};

/// The variance over n where the op asks for n - 1 (a correction read and dropped).
struct BiasedForUnbiased : RowReductionAsWritten {
  static constexpr bool ignore_correction = true;
};

/// Both norms' eps added after the square root: 1 / (sqrt(v) + eps).
struct EpsOutsideSqrt : RowReductionAsWritten {
  static constexpr bool eps_inside_sqrt = false;
};

/// LayerNorm's statistics in binary32: within a binary32 kernel's contract, not within the
/// binary64 reference's.
struct StatisticsInFloat : RowReductionAsWritten {
  static constexpr bool statistics_in_double = false;
};

/// RMSNorm with the weight applied before normalising: x_i w_i / sqrt(mean_j (x_j w_j)^2 + eps),
/// a fused kernel that scales x by w on load.
struct WeightBeforeNormalising : RowReductionAsWritten {
  static constexpr bool weight_after_normalising = false;
};

/// cross_entropy that never compares the target with ignore_index: an ignored row gets a loss.
struct IgnoreIndexIgnored : RowReductionAsWritten {
  static constexpr bool honour_ignore_index = false;
};

/// cross_entropy that accepts label_smoothing and drops it.
struct SmoothingDropped : RowReductionAsWritten {
  static constexpr bool smoothing_term = false;
};

/// cross_entropy as lse - x_t in binary32: a large common logit offset costs u |lse|.
struct LossFromRoundedLse : RowReductionAsWritten {
  static constexpr bool loss_from_log_softmax = false;
};

/// cross_entropy_mean over every row of the batch, the ignored ones included.
struct MeanCountsIgnoredRows : RowReductionAsWritten {
  static constexpr bool mean_over_counted_rows = false;
};

/// cross_entropy_mean guarded to 0 where no row is counted, declared NaN (0 / 0).
struct MeanOfNoneZero : RowReductionAsWritten {
  static constexpr bool mean_of_none_nan = false;
};

/// argmax and topk that pass NaN over (x > best is false for NaN), as fmax does.
struct NanPassedOver : RowReductionAsWritten {
  static constexpr bool nan_is_largest = false;
};

/// argmax and topk that keep the last of equal elements (x >= best), declared lowest-first.
struct LastOfTies : RowReductionAsWritten {
  static constexpr bool first_of_ties = false;
};

/// argmax and topk that rank +0 above -0 (a radix select on the floats' ordered bits), where
/// the declared order holds them equal and breaks their tie by index.
struct PositiveZeroAboveNegative : RowReductionAsWritten {
  static constexpr bool zeros_equal = false;
};

}  // namespace osvs::mutation
