// The ops of the row-wise kind (rowwise_kernel.h, which names their arrays): for each, its exact
// outputs (the oracle), the condition term its accuracy contract scales with, and what makes a row
// empty (fully masked). docs/semantics.md §11 holds the definitions.
//
//   softmax_backward      inputs (y, dy), output dx_i = y_i (dy_i - sum_j y_j dy_j);
//                         cond_i = |y_i| (|dy_i| + sum_j |y_j dy_j|); empty: every y_j = 0
//   log_softmax_backward  inputs (z, dy), output dx_i = dy_i - exp(z_i) sum_j dy_j;
//                         cond_i = |dy_i| + exp(z_i) sum_j |dy_j|; empty: every z_j = -inf
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/rowwise_kernel.h"
#include "osvs/oracle/softmax_backward_reference.h"

namespace osvs {

/// One row's inputs, one pointer to n floats per input array (the op's order).
using RowInputs = std::vector<const float*>;

/// The exact outputs of one row: [output][element] (oracle/softmax_backward_reference.h).
std::vector<std::vector<oracle::ExactElement>> rowwise_exact(RowwiseOp op, const RowInputs& in,
                                                             std::int64_t n,
                                                             const std::vector<DType>& out_types);

/// The condition term of every element of output `output` (>= 0; NaN or inf where an input is
/// not finite), computed in binary64 from non-negative terms: relative error below
/// (n + 2) 2^-53, which the judge's slack covers.
std::vector<double> rowwise_condition(RowwiseOp op, std::size_t output, const RowInputs& in,
                                      std::int64_t n);

/// The row is empty for the op (fully masked: every y_j = 0, or every z_j = -inf), n >= 1.
bool is_empty_row(RowwiseOp op, const RowInputs& in, std::int64_t n);

/// Whether every element of the forward's output (input 0) is one a forward gives: y in [0, 1]
/// or NaN for softmax backward, z in [-inf, 0] or NaN for log-softmax backward. The value laws
/// (accuracy, empty_rows, special_values) judge only such rows: elsewhere the formula has no one
/// IEEE evaluation (y = +inf: y (dy - s) is -inf, y dy - y s NaN; z > 0 with dy = 0: exp(z) 0 is
/// NaN in float once exp(z) overflows) and no kernel owes a convention (docs/semantics.md §11).
bool in_forward_range(RowwiseOp op, const RowInputs& in, std::int64_t n);

/// The value an empty row's input takes (0 for y, -inf for z), which the generators mask with.
float masked_input(RowwiseOp op);

}  // namespace osvs
