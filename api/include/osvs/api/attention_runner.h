// Running a registered attention kernel on one case and checking what it did to memory, as the
// row and merge runners do: q, k, v, the sequence offsets and the block table staged in the
// kernel's layout (pages in the case's order, spare pages and the unused slots of a sequence's
// last page holding `fill`), o and lse surrounded by guard zones and filled with a
// signalling-NaN sentinel, the launch on the host or on a stream of its own (runner.h's
// run_on_device), then the checks: every input unchanged, guards intact, every o and lse element
// written. Any breach, an exception or a CUDA error is a KernelFailure naming the kernel.
#pragma once

#include <string>

#include "osvs/api/attention_case.h"
#include "osvs/api/runner.h"  // KernelFailure, DeviceUnavailable

namespace osvs {

/// What the memory the case does not define holds: the unused slots of pages and the spare
/// pages (the poison law fills them with NaN, inf and 1e30, or for fp8 K/V those the type
/// represents; every other law with +0), stored in the case's K/V type.
struct AttentionFill {
  float unused_kv = 0.0f;
};

/// k(c): o and (when k writes one) lse. Throws KernelFailure (above), std::invalid_argument for
/// a malformed case (attention_case_problem) or one k does not declare (its in types, masks,
/// page sizes, GQA), DeviceUnavailable for a device kernel where none is usable.
AttentionOutputs run_attention_kernel(const AttentionKernel& k, const AttentionCase& c,
                                      const AttentionFill& fill = {});

/// What of c k does not declare (an in type, fp8 K/V of a type it does not declare or K/V in
/// the in type where it declares fp8 only, a mask or its alignment, GQA, a page size, an lse
/// base, a head_dim, different lengths, fewer keys than its min_k_len, a masked sequence that is
/// not square), or "" when k takes c. The laws judge no case k does not take (a reduction of a
/// failing case that leaves its domain is not judged).
std::string undeclared_in(const AttentionKernel& k, const AttentionCase& c);

/// Whether the kernel can run in this process; *why_not says why not.
bool runnable(const AttentionKernel& k, std::string* why_not);

}  // namespace osvs
