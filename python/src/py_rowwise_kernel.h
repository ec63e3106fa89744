// A RowwiseKernel declared from Python (osvs/_rowwise.py): a softmax or log-softmax backward, a
// logsumexp, a LayerNorm or an RMSNorm. A launch calls call(inputs, eps) with the launch's input
// arrays in the op's order, each a NumPy array of its element type (bf16 as uint16 bits): shape
// (rows, cols) for a row's elements (a strided view where the row is padded), (cols,) for an
// array every row shares (weight, bias); it returns the output: (rows, cols), or (rows,) for one
// value a row (logsumexp), of the output's type. The declaration: "name", "op"
// (softmax_backward, log_softmax_backward, logsumexp, layer_norm, rms_norm), "in_types" and
// "out_types" (f32, bf16, f16), "accuracy" (None or (ulps, cond_rel, cond_rel_per_element)),
// "max_cols", "strided", "deterministic", "batch_invariant", "order_independent",
// "scale_invariant", "skip", "known_defect", "description". An unknown op or element type is
// refused. Its case as a dict: inputs (each a list of float32 rows), its parameters, summary, text.
// A kernel without an accuracy contract declares none.
#pragma once

#include "osvs/api/kind.h"
#include "py_kind_side.h"

namespace osvs::python {

PythonSide<RowwiseKind> python_side(RowwiseKind);

}  // namespace osvs::python
