// A MergeKernel declared from Python: the callable gets the launch's partials as NumPy arrays,
// call(o_a, lse_a, o_b, lse_b, base) with base "e" or "2", and returns (o, lse) as CPU arrays of
// the same shapes and types. o is of the launch's o type (float32, float16, or bfloat16 as uint16
// bits), lse float32. As rows (the declaration's lse_layout None): o (rows, head_dim), lse
// (rows,). In an engine's shapes (lse_layout "tokens_heads" or "heads_tokens"): o (tokens, heads,
// head_dim), a strided view of the padded buffer when the kernel declares o_strided, lse
// (tokens, heads) or (heads, tokens).
// Its case as a dict: parts (o, lse, o_type each), shape (heads, head_pad, token_pad), base,
// tree_choices, other_choices, summary. A merge kernel's bound is always derived.
#pragma once

#include "osvs/api/kind.h"
#include "py_kind_side.h"

namespace osvs::python {

PythonSide<MergeKind> python_side(MergeKind);

}  // namespace osvs::python
