// The ops of the row-wise kind (rowwise_kernel.h, which names their arrays): for each, its exact
// outputs (the oracle), the condition term its accuracy contract scales with, and what makes a row
// empty (fully masked). docs/semantics.md §11 holds the definitions.
//
//   softmax_backward      inputs (y, dy), output dx_i = y_i (dy_i - sum_j y_j dy_j);
//                         cond_i = |y_i| (|dy_i| + sum_j |y_j dy_j|); empty: every y_j = 0
//   log_softmax_backward  inputs (z, dy), output dx_i = dy_i - exp(z_i) sum_j dy_j;
//                         cond_i = |dy_i| + exp(z_i) sum_j |dy_j|; empty: every z_j = -inf
//   logsumexp             input x, output lse = log sum_j exp(x_j) (one a row); cond = 1 (the
//                         error is absolute); empty: every x_j = -inf (lse = -inf)
//   layer_norm            inputs (x, weight, bias), y_i = (x_i - mu) / sqrt(var + eps) w_i + b_i;
//                         cond_i = |w_i| r (|x_i| + a) (1 + |x^_i|) + |b_i|, r = 1/sqrt(var + eps),
//                         a = sum_j |x_j| / n, x^_i = (x_i - mu) r
//   rms_norm              inputs (x, weight), y_i = x_i / sqrt(sum_j x_j^2 / n + eps) w_i;
//                         cond_i = |x_i w_i| r, r = 1 / sqrt(sum_j x_j^2 / n + eps)
//   mean_var(_unbiased)   input x, outputs mean and var (one each a row), var over n (n - 1);
//                         cond of the mean a = sum_j |x_j| / n, of the var sigma (sigma + a)
//   cross_entropy         inputs (x, target), loss = sum_j w_j (lse - x_j), w_t = 1 - eps +
//                         eps / n, w_j = eps / n; cond = 1 + sum_j w_j (lse - x_j) = 1 + loss;
//                         empty: target = ignore_index (loss 0)
//   argmax, topk          input x; the first index (the first k) of the rank order
//                         (oracle/selection_reference.h); exact, no condition term
//   cross_entropy_sum     inputs (x, target) of every row, one value for the batch: the sum of
//                         the counted rows' losses (a row is counted unless its target is
//                         ignore_index); cond = sum_(counted) (1 + loss_i), the contract's n the
//                         batch's rows * cols; no row counted (all ignored, or no row): +0
//   cross_entropy_mean    the same over the number c of counted rows: cond = sum_(counted)
//                         (1 + loss_i) / c; no row counted: NaN (0 / 0), or 0 where the kernel
//                         declares MeanOfNone::Zero (its empty rows: the ignored ones)
// The norms, mean_var, argmax and topk have no empty row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/rowwise_kernel.h"
#include "osvs/oracle/exact_element.h"

namespace osvs {

/// One row's inputs, one pointer to n floats per input array (the op's order; a Column array's
/// n shared values).
using RowInputs = std::vector<const float*>;

/// The exact outputs of one row: [output][element], each output its width (n, or 1)
/// (oracle/softmax_backward_reference.h, oracle/row_reduction_reference.h), under the
/// conventions `traits` declares (rms_norm's inf_row). std::invalid_argument for an op that
/// reduces the batch (rowwise_batch_exact).
std::vector<std::vector<oracle::ExactElement>> rowwise_exact(RowwiseOp op, const RowInputs& in,
                                                             std::int64_t n,
                                                             const RowwiseParams& params,
                                                             const std::vector<DType>& out_types,
                                                             const RowwiseTraits& traits = {});

/// The exact outputs of a batch reduction (cross_entropy_mean, cross_entropy_sum), one value
/// each, of the batch `rows` (rows of n elements; none is a batch of no rows), under the
/// conventions `traits` declares (mean_of_none).
std::vector<oracle::ExactElement> rowwise_batch_exact(RowwiseOp op,
                                                      const std::vector<RowInputs>& rows,
                                                      std::int64_t n, const RowwiseParams& params,
                                                      const std::vector<DType>& out_types,
                                                      const RowwiseTraits& traits = {});

/// A batch reduction's condition term: sum_(counted) (1 + loss_i), over c for the mean (0 with
/// no row counted), in binary64 from osvs's reference losses (each (4 n + 5) 2^-53 relative,
/// the sum c 2^-53 more: below the judge's 2^-30 for n, c < 2^20); NaN or inf where a counted
/// loss is.
double rowwise_batch_condition(RowwiseOp op, const std::vector<RowInputs>& rows, std::int64_t n,
                               const RowwiseParams& params);

/// Whether the op reduces the whole batch to one value (cross_entropy_mean, cross_entropy_sum):
/// its outputs are Extent::Batch, judged per launch, not per row.
bool reduces_batch(RowwiseOp op);

/// Whether the op is a backward (softmax_backward, log_softmax_backward): its inputs a forward's
/// output (y or z) and an upstream gradient dy.
bool is_backward(RowwiseOp op);

/// Whether the op reads a target per row and the parameters ignore_index and label_smoothing
/// (cross_entropy and its batch reductions).
bool reads_target(RowwiseOp op);

/// The condition term of every element of output `output` (>= 0; NaN or inf where an input is
/// not finite), computed in binary64: from non-negative terms for the backward ops and rms_norm
/// (relative error below (n + 2) 2^-53), with a compensated mean for layer_norm and mean_var
/// (below (n + 8) 2^-53: the judge's slack, 2^-30, covers both); cross_entropy's is 1 plus osvs's
/// reference loss in binary64, (4 n + 5) 2^-53 relative (below 2^-30 for n < 2^20). 0 for the
/// selecting ops, which have no contract.
std::vector<double> rowwise_condition(RowwiseOp op, std::size_t output, const RowInputs& in,
                                      std::int64_t n, const RowwiseParams& params);

/// Whether the op has empty (fully masked) rows: the backward ops, logsumexp and the
/// cross-entropies.
bool has_empty_rows(RowwiseOp op);

/// The row is empty for the op (fully masked: every y_j = 0, every z_j or x_j = -inf; a
/// cross-entropy's target ignore_index: a batch reduction does not count it), n >= 1.
bool is_empty_row(RowwiseOp op, const RowInputs& in, std::int64_t n, const RowwiseParams& params);

/// Whether the op selects elements (argmax, topk): its outputs are judged exactly under the
/// kernel's tie rule (api/src/rowwise_selection.h), not against a contract.
bool selects(RowwiseOp op);

/// Whether the op reads eps (layer_norm, rms_norm).
bool uses_eps(RowwiseOp op);

/// The invariances the op has in exact arithmetic: x + c (logsumexp: lse + c; layer_norm and
/// the cross-entropies: the same outputs) and 2^k x with eps = 0 (layer_norm, rms_norm, argmax:
/// the same outputs; topk: its values times 2^k).
bool shift_invariant(RowwiseOp op);
bool scale_invariant(RowwiseOp op);

/// Whether every element of the forward's output (input 0) is one a forward gives: y in [0, 1]
/// or NaN for softmax backward, z in [-inf, 0] or NaN for log-softmax backward. The value laws
/// (accuracy, empty_rows, special_values) judge only such rows: elsewhere the formula has no one
/// IEEE evaluation (y = +inf: y (dy - s) is -inf, y dy - y s NaN; z > 0 with dy = 0: exp(z) 0 is
/// NaN in float once exp(z) overflows) and no kernel owes a convention (docs/semantics.md §11).
bool in_forward_range(RowwiseOp op, const RowInputs& in, std::int64_t n);

/// The value an empty row's input takes (0 for y, -inf for z and x), which the generators mask
/// with (cross_entropy masks its target instead: ignore_index).
float masked_input(RowwiseOp op);

/// Whether the op's outputs are unchanged by 2^k x (norms, argmax; not topk's values).
bool scale_keeps_outputs(RowwiseOp op);

}  // namespace osvs
