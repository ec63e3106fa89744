// The laws from Python, written once over the kinds (osvs/api/kind.h): check_kernel(kind, ...)
// runs laws on a kernel declared in Python, replay_file(kind, ...) replays one regression file on
// it, read_regression(path) reads one of any kind, laws(kind) lists a kind's laws.
#pragma once

#include <nanobind/nanobind.h>

namespace osvs::python {

void bind_kind_checks(nanobind::module_& m);

}  // namespace osvs::python
