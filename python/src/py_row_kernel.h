// A RowKernel declared from Python. The declaration arrives as a dict whose keys are the
// RowKernel's declarations (osvs/_declare.py builds and checks it); the callable is called with
// the launch's rows as a float32 NumPy array (rows x cols, the launch's row stride kept) and
// returns the outputs as any float32 CPU array of that shape, which is copied into the launch's
// output. Everything else (guard zones, sentinel, laws, oracle) is the C++ core's, unchanged.
#pragma once

#include <nanobind/nanobind.h>

#include "osvs/api/row_kernel.h"

namespace osvs::python {

namespace nb = nanobind;

/// The kernel; throws std::invalid_argument for a declaration the registry would refuse.
RowKernel row_kernel_from_python(const nb::dict& declaration, nb::callable call);

/// An accuracy contract from Python: None, a number of ulps, (callable(n, range), formula) or
/// ("derived", kernel, combine, block).
Accuracy accuracy_from_python(nb::handle a);

}  // namespace osvs::python
