// One exactly rounded output element of an MPFR reference: the softmax backward references
// (softmax_backward_reference.h) and the row reductions' (row_reduction_reference.h).
#pragma once

namespace osvs::oracle {

/// One output element: its exact value correctly rounded to the output type, the same rounded
/// to double (relative error <= 2^-53; NaN and +-inf as the rounded one) and the binade of the
/// exact value, floor(log2 |dx|) (kZeroBinade for 0, NaN and +-inf).
struct ExactElement {
  float rounded = 0;
  double value = 0;
  int binade = 0;
};

inline constexpr int kZeroBinade = -100000;

}  // namespace osvs::oracle
