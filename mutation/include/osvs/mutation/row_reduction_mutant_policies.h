// The row reduction mutants' policies: each is RowReductionAsWritten
// (kernels/include/osvs/kernels/row_reductions.h) with one step changed, a bug a logsumexp,
// LayerNorm, RMSNorm, cross-entropy (per row or over the batch), argmax or top-k kernel can
// ship. The reference kernels' own
// templates instantiate them (api/builtin/builtin_row_reductions.h);
// api/tests/softmax_backward_mutants_test.cpp holds each to the row-wise laws, declared as its
// original is.
#pragma once

#include "osvs/kernels/row_reductions.h"
#include "osvs/mutation/one_member_mutant.h"

namespace osvs::mutation {

/// logsumexp without the max subtracted: exp(x) overflows binary32 past x = 88.7.
OSVS_ONE_MEMBER_MUTANT(LseWithoutMax, RowReductionAsWritten, subtract_max, false);

/// logsumexp of a row of -inf computed as -inf - (-inf): NaN instead of -inf.
OSVS_ONE_MEMBER_MUTANT(LseEmptyRowNan, RowReductionAsWritten, guard_empty_row, false);

/// LayerNorm's variance as E[x^2] - mu^2 in binary32: cancels at a mean large against the
/// spread (and goes negative: NaN once below -eps).
OSVS_ONE_MEMBER_MUTANT(OnePassVariance, RowReductionAsWritten, variance_of_deviations, false);

/// LayerNorm's variance, RMSNorm's mean square and var_mean's biased variance divided by n - 1
/// (torch.var's default), not n.
OSVS_ONE_MEMBER_MUTANT(UnbiasedVariance, RowReductionAsWritten, biased_variance, false);

/// The variance over n where the op asks for n - 1 (a correction read and dropped).
OSVS_ONE_MEMBER_MUTANT(BiasedForUnbiased, RowReductionAsWritten, ignore_correction, true);

/// Both norms' eps added after the square root: 1 / (sqrt(v) + eps).
OSVS_ONE_MEMBER_MUTANT(EpsOutsideSqrt, RowReductionAsWritten, eps_inside_sqrt, false);

/// LayerNorm's statistics in binary32: within a binary32 kernel's contract, not within the
/// binary64 reference's.
OSVS_ONE_MEMBER_MUTANT(StatisticsInFloat, RowReductionAsWritten, statistics_in_double, false);

/// RMSNorm with the weight applied before normalising: x_i w_i / sqrt(mean_j (x_j w_j)^2 + eps),
/// a fused kernel that scales x by w on load.
OSVS_ONE_MEMBER_MUTANT(WeightBeforeNormalising, RowReductionAsWritten, weight_after_normalising,
                       false);

/// cross_entropy that never compares the target with ignore_index: an ignored row gets a loss.
OSVS_ONE_MEMBER_MUTANT(IgnoreIndexIgnored, RowReductionAsWritten, honour_ignore_index, false);

/// cross_entropy that accepts label_smoothing and drops it.
OSVS_ONE_MEMBER_MUTANT(SmoothingDropped, RowReductionAsWritten, smoothing_term, false);

/// cross_entropy as lse - x_t in binary32: a large common logit offset costs u |lse|.
OSVS_ONE_MEMBER_MUTANT(LossFromRoundedLse, RowReductionAsWritten, loss_from_log_softmax, false);

/// cross_entropy_mean over every row of the batch, the ignored ones included.
OSVS_ONE_MEMBER_MUTANT(MeanCountsIgnoredRows, RowReductionAsWritten, mean_over_counted_rows, false);

/// cross_entropy_mean guarded to 0 where no row is counted, declared NaN (0 / 0).
OSVS_ONE_MEMBER_MUTANT(MeanOfNoneZero, RowReductionAsWritten, mean_of_none_nan, false);

/// argmax and topk that pass NaN over (x > best is false for NaN), as fmax does.
OSVS_ONE_MEMBER_MUTANT(NanPassedOver, RowReductionAsWritten, nan_is_largest, false);

/// argmax and topk that keep the last of equal elements (x >= best), declared lowest-first.
OSVS_ONE_MEMBER_MUTANT(LastOfTies, RowReductionAsWritten, first_of_ties, false);

/// argmax and topk that rank +0 above -0 (a radix select on the floats' ordered bits), where
/// the declared order holds them equal and breaks their tie by index.
OSVS_ONE_MEMBER_MUTANT(PositiveZeroAboveNegative, RowReductionAsWritten, zeros_equal, false);

}  // namespace osvs::mutation
