// The row laws from Python (check_row_kernel, replay_row_file, read_row_regression, row_laws).
#pragma once

#include <nanobind/nanobind.h>

namespace osvs::python {

void bind_row_checks(nanobind::module_& m);

}  // namespace osvs::python
