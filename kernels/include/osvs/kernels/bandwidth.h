// Bandwidth of the softmax kernels as a fraction of a device-to-device copy of the same matrix,
// both timed with CUDA events in the same process (median of repetitions). A softmax must read the
// matrix once and write it once, exactly a copy's traffic, so copy_ms / kernel_ms is the share of
// achievable bandwidth the kernel reaches. A kernel that passes over x k times moves between 2N
// and (k + 1)N floats through HBM (N = rows * cols): the second and later passes are served by L2
// only where the data is still resident. x_passes says which kernel is which.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/fast_launch.h"

namespace osvs {

struct KernelTiming {
  KernelKind kernel;
  CombineKind combine;
  int block;
  double ms;                ///< median time of one launch
  double fraction_of_copy;  ///< copy_ms / ms
  std::string path;         ///< the fast kernel's layout/path (describe_fast_launch), else ""
  int x_passes;             ///< reads of x the kernel issues (HBM or L2): 1, 2 or 3
  double min_hbm_bytes;     ///< x once, y once, plus the fast kernel's chunk states and counters
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
  cuda::FastSplitPath split = cuda::FastSplitPath::Auto;  ///< the fast kernel's split rows
};

/// Times each kernel and a device copy on rows x cols N(0, 10) data on device 0. Throws
/// std::runtime_error when no device is usable or a CUDA call fails; InvalidLaunch for bad shapes.
ShapeTiming time_softmax_kernels(std::int64_t rows, std::int64_t cols,
                                 const std::vector<TimedKernel>& kernels, int repetitions = 20);

/// The fast kernel with bf16 input and output (cuda::launch_fast_softmax_bf16) against a device
/// copy of the same bf16 matrix, on the same N(0, 10) data rounded to bf16 (Auto split path).
struct Bf16Timing {
  double copy_ms;
  double ms;
  double fraction_of_copy;
};
Bf16Timing time_fast_bf16(std::int64_t rows, std::int64_t cols, int repetitions = 20);

/// Any softmax timed like the kernels above, so that a kernel osvs did not write (cuDNN's, a
/// user's) sits in the same table: `launch(x, y)` enqueues y = softmax(x) of the rows x cols
/// float matrix (device pointers) on the default stream; the same N(0, 10) data, the same copy,
/// the same median. Throws std::runtime_error when a CUDA call fails.
struct LaunchTiming {
  double copy_ms;
  double ms;
  double fraction_of_copy;
};
LaunchTiming time_launch_against_copy(std::int64_t rows, std::int64_t cols,
                                      const std::function<void(const float* x, float* y)>& launch,
                                      int repetitions = 20);

}  // namespace osvs
