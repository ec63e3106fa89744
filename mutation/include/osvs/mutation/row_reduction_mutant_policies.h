// The row reduction mutants' policies: each is RowReductionAsWritten
// (kernels/include/osvs/kernels/row_reductions.h) with one step changed, a bug a logsumexp,
// LayerNorm or RMSNorm kernel can ship. The reference kernels' own templates instantiate them
// (api/builtin/builtin_row_reductions.h); api/tests/softmax_backward_mutants_test.cpp holds each
// to the row-wise laws, declared as its original is.
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

/// LayerNorm's variance divided by n - 1 (torch.var's default), not n.
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

}  // namespace osvs::mutation
