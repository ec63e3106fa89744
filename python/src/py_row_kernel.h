// A RowKernel declared from Python. The declaration arrives as a dict whose keys are the
// RowKernel's declarations (osvs/_declare.py builds and checks it); the callable is called with
// the launch's rows as a float32 NumPy array (rows x cols, the launch's row stride kept) and
// returns the outputs as any float32 CPU array of that shape, which is copied into the launch's
// output. Everything else (guard zones, sentinel, laws, oracle) is the C++ core's, unchanged.
// Its case as a dict: rows (float32 arrays), permutation, shift, batch_position, batch_rows,
// x_pad, y_pad, summary, text. A kernel without an accuracy contract declares none.
#pragma once

#include <nanobind/nanobind.h>

#include "osvs/api/kind.h"
#include "py_kind_side.h"

namespace osvs::python {

namespace nb = nanobind;

PythonSide<RowKind> python_side(RowKind);

/// An accuracy contract from Python: None, a number of ulps, (callable(n, range), formula) or
/// ("derived", kernel, combine, block).
Accuracy accuracy_from_python(nb::handle a);

}  // namespace osvs::python
