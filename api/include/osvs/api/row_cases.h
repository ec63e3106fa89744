// Generators of RowCases for a kernel, shaped by its declaration the way CUTLASS's testbed shapes
// problem sizes by a kernel's alignment: row lengths around multiples of its vector width and
// block, around powers of two, and scaled by RapidCheck's size up to 2^16; values exact in its
// input type and, for an f16 output, inside the range where its results stay finite.
#pragma once

#include <rapidcheck.h>

#include <cstdint>

#include "osvs/api/row_laws.h"

namespace osvs::testbed {

/// Row lengths for k (0 included only when `with_empty`).
rc::Gen<std::int64_t> row_length(const RowKernel& k, bool with_empty);

/// The case generator for `law` on kernel k.
rc::Gen<RowCase> row_case(const RowKernel& k, const std::string& law);

}  // namespace osvs::testbed
