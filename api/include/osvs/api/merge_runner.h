// Running a registered merge kernel on two partial states and checking what it did to memory,
// as the row runner (runner.h) does for row kernels: the operands staged in the kernel's o type,
// o and lse outputs surrounded by guard zones and filled with a signalling-NaN sentinel, the
// launch on the host or on a stream of its own, then the checks: inputs unchanged, guards
// intact, every lse and o component written, no CUDA error left. Any breach, an exception or a
// CUDA error is a KernelFailure naming the kernel and what it did.
#pragma once

#include <string>

#include "osvs/api/merge_kernel.h"
#include "osvs/api/runner.h"  // KernelFailure, DeviceUnavailable
#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/properties/attention/attention_laws.h"  // MergeShape

namespace osvs {

/// out = k(a, b) with every lse in `base`, in the kernel's own empty representation (no
/// translation: merge_laws.h's adapter does that). Throws KernelFailure (above),
/// std::invalid_argument for operands of different shapes, an o type the kernel does not declare
/// or o values not exact in it, and DeviceUnavailable for a device kernel where none is usable.
/// `shape` says how the rows are laid out for the kernel (MergeShape: tokens x heads, padding);
/// its padding is used only for a kernel that declares o_strided, and the kernel must leave the
/// output's padding untouched. Throws std::invalid_argument, too, for heads that do not divide
/// the rows and a head_dim the kernel does not take.
AttnStates run_merge_kernel(const MergeKernel& k, const AttnStates& a, const AttnStates& b,
                            LseBase base, const MergeShape& shape = {});

/// Whether the kernel can run in this process; *why_not says why not.
bool runnable(const MergeKernel& k, std::string* why_not);

}  // namespace osvs
