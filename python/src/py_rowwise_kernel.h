// A RowwiseKernel declared from Python (osvs/_rowwise.py): a softmax or log-softmax backward.
// A launch calls call(inputs) with the launch's input arrays, each a NumPy array of shape
// (rows, cols) of its element type (a strided view where the row is padded; bf16 as uint16 bits),
// in the op's order ((y, dy) or (z, dy)); it returns dx of shape (rows, cols) and the output's
// type. The declaration: "name", "op" ("softmax_backward" or "log_softmax_backward"),
// "in_types" and "out_types" (f32, bf16, f16), "accuracy" (None or (ulps, cond_rel,
// cond_rel_per_element)), "max_cols", "strided", "deterministic", "batch_invariant",
// "order_independent", "skip", "known_defect", "description".
#pragma once

#include <nanobind/nanobind.h>

#include "osvs/api/rowwise_kernel.h"

namespace osvs::python {

namespace nb = nanobind;

/// The kernel; std::invalid_argument for a declaration the registry would refuse, an unknown op
/// or element type.
RowwiseKernel rowwise_kernel_from_python(const nb::dict& declaration, nb::callable call);

}  // namespace osvs::python
