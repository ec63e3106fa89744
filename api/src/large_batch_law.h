// The opt-in law of batches past 2^31 elements (M * N >= 2^31): the index arithmetic that 32-bit
// kernels get wrong. About 8.6 GB of input: it runs only when OSVS_LARGE_LAWS=1.
#pragma once

#include <string>

#include "large_law_parts.h"
#include "osvs/api/row_laws.h"

namespace osvs::api {

/// Why the law does not run (not opted in), or "".
std::string large_batch_excluded(const RowKernel& k);

/// The law's one case: a row of N = min(4099, max_cols) values exact in k's input type, from a
/// fixed seed (N = 4099 leaves a tail of 3 after every vector width and block that divides 4096).
RowCase large_batch_case(const RowKernel& k);

/// Runs k on M = ceil(2^31 / N) + 1 rows, row i the case's row rotated by i (so that a kernel
/// reading another row is seen), and judges, against the exact values and the contract, the
/// first row, the rows on both sides of element 2^31 and the last row (large_law_parts.h: a
/// failed launch names its likely cause).
Verdict check_large_batch(const RowKernel& k, const RowCase& c);

}  // namespace osvs::api
