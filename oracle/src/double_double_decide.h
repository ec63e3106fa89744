// The reference's second rung: the elements whose rounding or binade the double path leaves
// undecided, decided in double-double arithmetic before MPFR is asked (reference_fast.cpp). A row
// sum in double-double costs about as much as a few double exps an element, MPFR's about a
// microsecond an element: on a row of 2^24 elements, one undecided element cost seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "osvs/kernels/index_loop.h"

namespace osvs::oracle::detail {

/// Decides y_rounded[j] and y_binade[j] for the elements `which` (ascending, none negligible) of
/// a Finite row of at most kMaxReferenceRow elements with maximum m, where double-double
/// arithmetic proves them; returns the others (ascending) for MPFR. `max_binade` is the row's
/// binade_of_maximum. The row sum runs in fixed element chunks, on `loops` when given (the same
/// decisions either way; any decision is the exact one).
std::vector<std::int64_t> double_double_decide(const float* x, std::int64_t n, float m,
                                               const std::vector<std::int64_t>& which,
                                               const std::optional<int>& max_binade,
                                               std::vector<float>& y_rounded,
                                               std::vector<int>& y_binade,
                                               const IndexLoop* loops = nullptr);

}  // namespace osvs::oracle::detail
