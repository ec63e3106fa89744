// A MergeKernel declared from Python: the callable gets the launch's partials as float32 NumPy
// arrays, call(o_a, lse_a, o_b, lse_b, base) with o of shape (rows, head_dim), lse of shape
// (rows,) and base "e" or "2", and returns (o, lse) as float32 CPU arrays of those shapes.
#pragma once

#include <nanobind/nanobind.h>

#include "osvs/api/merge_kernel.h"

namespace osvs::python {

namespace nb = nanobind;

/// The kernel; throws std::invalid_argument for a declaration the registry would refuse.
MergeKernel merge_kernel_from_python(const nb::dict& declaration, nb::callable call);

}  // namespace osvs::python
