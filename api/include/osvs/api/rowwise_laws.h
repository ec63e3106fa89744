// The laws of a row-wise kernel (rowwise_kernel.h), the case they are judged on and the runner
// that launches the kernel on a batch and checks what it did to memory.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "osvs/api/kind_law.h"
#include "osvs/api/rowwise_kernel.h"
#include "osvs/api/runner.h"  // Rows, KernelFailure, DeviceUnavailable

namespace osvs {

/// A batch for each input array of the op: inputs[a][r] is row r of input a (a Column array,
/// shared by every row, holds one row), every row of every input its array's width (cols, or 1
/// for a Row array: a cross-entropy's target), each value exactly one of that input's type. Row
/// 0 is the subject of the laws that follow one row (batch_invariance, permutation,
/// shift_invariance, scale_invariance). The launch's parameters (eps, label_smoothing,
/// ignore_index, k) are the case's.
struct RowwiseCase : RowwiseParams {
  std::vector<Rows> inputs;
  std::vector<std::int64_t> permutation;  ///< of the subject row's columns (permutation)
  std::int64_t batch_position = 0;        ///< where the subject row sits (batch_invariance)
  std::vector<std::int64_t> pads;         ///< per array, inputs then outputs (strided)
  float shift = 0;         ///< added to the subject's x (shift_invariance; every sum exact)
  int scale_exponent = 0;  ///< the subject's x times 2^scale_exponent (scale_invariance)

  std::int64_t rows() const {
    return inputs.empty() ? 0 : static_cast<std::int64_t>(inputs[0].size());
  }
  std::int64_t cols() const {
    return rows() == 0 ? 0 : static_cast<std::int64_t>(inputs[0][0].size());
  }
};

/// How RapidCheck prints a case: its shape and its inputs' first values as hex floats.
void showValue(const RowwiseCase& c, std::ostream& os);

/// The kernel's outputs, converted exactly to float: out[b][r * widths[b] + j] (width cols, 1
/// for a Row output, k for a K one; indices exactly, rowwise_kernel.h); a Batch output's one
/// value at out[b][0] (row(b, 0)).
struct RowwiseOutputs {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<std::int64_t> widths;
  std::vector<std::vector<float>> out;
  const float* row(std::size_t b, std::int64_t r) const { return out[b].data() + r * widths[b]; }
};

/// Runs k on the batch (params: the launch's, each read by the ops that read it), each array
/// with `pads[a]` extra elements a row (none when empty; inputs then outputs; a Column input
/// takes none).
/// Throws KernelFailure when the kernel throws, modifies an input, writes outside an output's
/// rows or leaves an output element unwritten; std::invalid_argument for a batch it does not
/// accept (another number of inputs, rows of other lengths, a Column input of other than one
/// row, values not exact in their input type, more columns than max_cols, padding for a kernel
/// that is not strided, topk's k outside 1 ... cols, label_smoothing outside [0, 1], no row or
/// rows of no element, padding for a Batch output); DeviceUnavailable for a device kernel where
/// no device is usable.
RowwiseOutputs run_rowwise_kernel(const RowwiseKernel& k, const std::vector<Rows>& inputs,
                                  const RowwiseParams& params = {},
                                  const std::vector<std::int64_t>& pads = {});

/// Runs a batch reduction (cross_entropy_mean, cross_entropy_sum) on a batch of no rows of
/// `cols` elements: rows = 0, every input of rows empty, its one value written all the same (a
/// convention: the empty sum 0, the mean of none NaN or the declared 0). The memory checks of
/// run_rowwise_kernel; std::invalid_argument for an op that does not reduce the batch (a
/// launch of no rows has no output to judge) or cols outside 1 ... max_cols.
RowwiseOutputs run_rowwise_empty_batch(const RowwiseKernel& k, std::int64_t cols,
                                       const RowwiseParams& params = {});

/// A row-wise kernel runs here: a host one always, a device one where a device is.
bool runnable(const RowwiseKernel& k, std::string* why_not);

using RowwiseLaw = KindLaw<RowwiseKernel, RowwiseCase>;

/// Every row-wise law, cheapest first: accuracy, empty_rows, special_values, determinism,
/// batch_invariance, strided, permutation, shift_invariance, scale_invariance.
const std::vector<RowwiseLaw>& rowwise_laws();

}  // namespace osvs
