// An AttentionKernel declared from Python: the callable gets one launch as NumPy arrays,
// call(q, k, v, cu_seqlens_q, cu_seqlens_k, block_table, meta) with q of shape
// (total_q, heads_q * head_dim_qk), k and v of shape (tokens, heads_kv * head_dim) (tokens:
// total_k, or num_pages * page_size when paged), in the case's input type (bf16 as its uint16
// bits), the offsets as lists of ints, block_table a list of lists or None, and meta a dict of
// the problem's scalars (scale, softcap, sinks and alibi_slopes (lists, or None), mask,
// window_left, window_right, mask_align, base, page_size, heads_q, heads_kv, head_dim_qk,
// head_dim_v, dtype). It returns o of shape (total_q, heads_q * head_dim_v) in the input type and,
// when it declares lse bases, the lse flattened in its declared layout: (o, lse).
// osvs/_declare.py's AttentionKernel reshapes.
// Its case as a dict: seqs ((q_len, k_len) each), heads, head_dims, dtype (and for fp8 K/V
// kv_type, k_scale, v_scale: k and v are then the stored values), scale, mask, window,
// page_size, page_order, q, k, v (dout, sinks where the case has them), summary. An attention
// kernel's contract is always declared (it has a default).
#pragma once

#include "osvs/api/kind.h"
#include "py_kind_side.h"

namespace osvs::python {

PythonSide<AttentionKind> python_side(AttentionKind);

}  // namespace osvs::python
