// The exact softmax and log-softmax backward of a row (MPFR), the oracle of the row-wise kind's
// backward ops (api/include/osvs/api/rowwise_kernel.h; docs/semantics.md §11):
//   softmax backward      dx_i = y_i (dy_i - s),         s = sum_j y_j dy_j
//   log-softmax backward  dx_i = dy_i - exp(z_i) S,      S = sum_j dy_j
// of the inputs as given: the floats y (or z) and dy are exact inputs, whatever rounding made
// them; y need not sum to 1. Each dx_i is the real above correctly rounded (to nearest, ties to
// even, subnormals included, +-inf past the type's largest finite value) to the output type.
//
// Rows that hold a NaN or an infinity take the IEEE value of the same formula with the row term
// (s or S) one value of the extended reals: NaN when a term is NaN, 0 * inf or inf - inf, else
// the sign of its infinite terms. So a NaN in dy (or in y) makes every dx_i of a softmax
// backward row NaN; a NaN z_k only its own dx_k; an infinite term gives each dx_i its infinity,
// or NaN where it meets a zero (y_i = 0, z_i = -inf).
#pragma once

#include <span>
#include <vector>

#include "osvs/kernels/dtype.h"
#include "osvs/oracle/exact_element.h"

namespace osvs::oracle {

/// dx of the softmax backward of the row (y, dy), each element rounded to `out`.
std::vector<ExactElement> softmax_backward_reference(std::span<const float> y,
                                                     std::span<const float> dy, DType out);

/// dx of the log-softmax backward of the row (z, dy), each element rounded to `out`.
std::vector<ExactElement> log_softmax_backward_reference(std::span<const float> z,
                                                         std::span<const float> dy, DType out);

}  // namespace osvs::oracle
