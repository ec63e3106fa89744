// Bandwidth of the softmax kernels as a fraction of a device-to-device copy of the same matrix,
// both timed with CUDA events in the same process (median of repetitions). A softmax reads the
// matrix once and writes it once, exactly a copy's traffic, so copy_ms / kernel_ms is the share of
// achievable bandwidth the kernel reaches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/kernels/cases.h"

namespace osvs {

struct KernelTiming {
  KernelKind kernel;
  CombineKind combine;
  int block;
  double ms;                ///< median time of one launch
  double fraction_of_copy;  ///< copy_ms / ms
};

struct ShapeTiming {
  std::int64_t rows, cols;
  double copy_ms;  ///< median time of cudaMemcpyAsync device-to-device of rows * cols floats
  double copy_gbps;
  std::vector<KernelTiming> kernels;
};

struct TimedKernel {
  KernelKind kernel;
  CombineKind combine;
  int block;
};

/// Times each kernel and a device copy on rows x cols N(0, 10) data on device 0. Throws
/// std::runtime_error when no device is usable or a CUDA call fails; InvalidLaunch for bad shapes.
ShapeTiming time_softmax_kernels(std::int64_t rows, std::int64_t cols,
                                 const std::vector<TimedKernel>& kernels, int repetitions = 20);

}  // namespace osvs
