// osvs._core.exact_attention: the exact attention (osvs/api/attention_laws.h's exact_attention,
// the oracle every attention law judges by) of a batch given as arrays, at a user's own shapes:
// a kernel's output can then be measured against it wherever it ran.
#pragma once

#include <nanobind/nanobind.h>

namespace osvs::python {

void bind_exact_attention(nanobind::module_& m);

}  // namespace osvs::python
