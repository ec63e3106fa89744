// The device side of the measurement: CUDA's exps evaluated on the GPU over a strided range of bit
// patterns, compiled with the flags of osvs's kernels (osvs_options: --fmad as configured, no
// fast-math, no flush-to-zero).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "osvs/exhaustive/exps_under_test.h"

namespace osvs::exhaustive {

struct DeviceDescription {
  bool present = false;
  std::string why_absent;          ///< when !present
  std::string name;                ///< e.g. "NVIDIA H200"
  std::string compute_capability;  ///< e.g. "9.0"
  int driver_cuda_version = 0;     ///< cudaDriverGetVersion (e.g. 13000)
  int runtime_version = 0;         ///< cudaRuntimeGetVersion of the linked runtime
  std::string nvcc;                ///< the compiler that built the device code
  std::string architectures;       ///< CMAKE_CUDA_ARCHITECTURES of the build
};

DeviceDescription describe_device();

/// out[i] = which(bits_float(first + i * stride)) for i < count, computed on the device.
/// Throws std::runtime_error (with the failing CUDA call) on any CUDA error or without a device.
void evaluate_on_device(DeviceExp which, std::uint64_t first, std::uint64_t stride,
                        std::size_t count, float* out);

/// out[i] = which(in[i]) for i < n, computed on the device (one thread per input; the copies and
/// the launch ordered on one stream), for input sets that are no strided range (every value of a
/// narrow format, formal/'s narrow exp facts). Throws as evaluate_on_device.
void evaluate_on_device_at(DeviceExp which, const float* in, std::size_t n, float* out);

}  // namespace osvs::exhaustive
