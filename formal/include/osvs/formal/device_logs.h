// The device side of formal.log_facts: CUDA's logf / log2f and the portable logs evaluated on the
// GPU, compiled with the flags of osvs's kernels (a build without CUDA has no device).
#pragma once

#include <cstddef>
#include <string>

namespace osvs::formal {

/// out[i] = the device log `name` (a LogUnderTest with on_device) of in[i], for i < n. Throws
/// std::runtime_error on any CUDA error, without a device, or for an unknown name.
void evaluate_log_on_device(const std::string& name, const float* in, float* out, std::size_t n);

}  // namespace osvs::formal
