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
#pragma once

#include <nanobind/nanobind.h>

#include "osvs/api/attention_kernel.h"

namespace osvs::python {

namespace nb = nanobind;

/// The kernel; throws std::invalid_argument for a declaration the registry would refuse.
AttentionKernel attention_kernel_from_python(const nb::dict& declaration, nb::callable call);

}  // namespace osvs::python
