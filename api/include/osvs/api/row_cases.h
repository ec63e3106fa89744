// Generators of RowCases for a kernel, shaped by its declaration the way CUTLASS's testbed shapes
// problem sizes by a kernel's alignment: row lengths around multiples of its vector width and
// block, around powers of two, and scaled by RapidCheck's size up to 2^16; values exact in its
// input type and, for an f16 output, inside the range where its results stay finite.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/row_laws.h"

namespace osvs::testbed {

/// Row lengths for k (0 included only when `with_empty`).
rc::Gen<std::int64_t> row_length(const RowKernel& k, bool with_empty);

/// The case generator for `law` on kernel k.
rc::Gen<RowCase> row_case(const RowKernel& k, const std::string& law);

/// A case of one finite row for each of k's layout lengths (row_layouts.h), shaped for `law` as
/// row_case shapes its cases (strides for strided, a batch around it for batch_invariance); none
/// for the laws with cases of their own kind (large_batch, shift_invariance, permutation). The
/// values are gen::finite_row's, drawn from a seed derived from the length: the same every run.
std::vector<RowCase> layout_cases(const RowKernel& k, const std::string& law);

}  // namespace osvs::testbed
