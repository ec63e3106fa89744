// The merge laws from Python (check_merge_kernel, replay_merge_file, read_merge_regression,
// merge_laws).
#pragma once

#include <nanobind/nanobind.h>

namespace osvs::python {

void bind_merge_checks(nanobind::module_& m);

}  // namespace osvs::python
