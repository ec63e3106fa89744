// A MergeKernel declared from Python: the callable gets the launch's partials as NumPy arrays,
// call(o_a, lse_a, o_b, lse_b, base) with base "e" or "2", and returns (o, lse) as CPU arrays of
// the same shapes and types. o is of the launch's o type (float32, float16, or bfloat16 as uint16
// bits), lse float32. As rows (the declaration's lse_layout None): o (rows, head_dim), lse
// (rows,). In an engine's shapes (lse_layout "tokens_heads" or "heads_tokens"): o (tokens, heads,
// head_dim), a strided view of the padded buffer when the kernel declares o_strided, lse
// (tokens, heads) or (heads, tokens).
#pragma once

#include <nanobind/nanobind.h>

#include "osvs/api/merge_kernel.h"

namespace osvs::python {

namespace nb = nanobind;

/// The kernel; throws std::invalid_argument for a declaration the registry would refuse.
MergeKernel merge_kernel_from_python(const nb::dict& declaration, nb::callable call);

}  // namespace osvs::python
