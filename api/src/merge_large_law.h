// The opt-in large law of merge kernels (large_batch, as the row kernels' one: OSVS_LARGE_LAWS=1,
// large_law_parts.h): one merge whose o arrays hold more than 2^32 elements, so that an element
// offset a kernel computes in 32 bits wraps, at 2^31 (int) and at 2^32 (unsigned), inside it.
// In the smallest o type the kernel declares (bf16 or f16: about 8 GiB per o array, three of
// them, 24.4 GiB of images at head_dim 128), on the host and, for a device kernel, on the device.
#pragma once

#include <string>

#include "large_law_parts.h"
#include "osvs/api/merge_laws.h"

namespace osvs::api {

/// Why the law does not run: not opted in, or (opted in) its launch needs more host or device
/// memory than this machine has ("not judged here: needs N GiB of device memory, the device has
/// M GiB free"); "" when it runs.
std::string large_merge_excluded(const MergeKernel& k);

/// The law's one case: the launch's head_dim (128, or the one k takes nearest it), o type (the
/// smallest k declares) and lse base (its first), carried by two one-row partials, the launch's
/// row 0 (large_merge_row); the launch lays its rows out as tokens x 8 heads.
MergeCase large_merge_case(const MergeKernel& k);

/// Row `row` of operand `side` (0: a, 1: b) of k's large launch of head_dim d: from a seed of k's
/// name, an lse in [-8, 8) (multiples of 1/16) and o components in [-4, 4) (multiples of 1/8),
/// exact in every merge o type, each row's drawn from its own hash, so that a kernel that reads
/// or writes another row (a wrapped offset) gives a visibly wrong merge.
void large_merge_row(const MergeKernel& k, int side, std::int64_t row, int d, float* lse, float* o);

/// Runs k once on rows = 2 * 2^31 / head_dim + 2 rows (rounded up to a multiple of the heads),
/// past element 2^32 of o, and judges, by the merge accuracy law against the exact merge, the
/// first row, the rows on both sides of elements 2^31 and 2^32 and the last row. Not judged where
/// the images do not fit the host's available memory (for a host kernel, with its own f32 copies
/// of the operands and result, as merge_host_io's helpers make) or the device's free memory. A
/// failed launch (a CUDA error, rows left unwritten) names its likely cause.
Verdict check_large_merge(const MergeKernel& k, const MergeCase& c);

}  // namespace osvs::api
