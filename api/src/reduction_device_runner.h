// The reduction kind's device half of the runner (runner.h's rules: one stream, every copy
// ordered on it, nothing read before it is synchronised, every CUDA call's status checked).
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/api/reduction_kernel.h"

namespace osvs {

/// Runs the device reduction k on `schedules` (each well formed, at least one): flattens them
/// (kernels/harness_flat.h), copies them to the device, hands k the device arrays and the
/// stream, and returns the states and results it wrote (schedules x fields bits each) once the
/// stream is synchronised. Throws KernelFailure naming k when it changed its input, wrote into
/// the guard zones around its outputs, left an output word unwritten (the sentinel) or wrote a
/// narrow field with bits beyond its width, or left a CUDA error; DeviceUnavailable where no
/// device is usable.
void run_reduction_on_device(const ReductionKernel& k, const std::vector<HarnessCase>& schedules,
                             std::vector<std::uint64_t>& states,
                             std::vector<std::uint64_t>& results);

}  // namespace osvs
