// Running a registered kernel on a batch of rows and checking what it did to memory.
//
// The runner lays the batch out as the kernel expects (its input type, the row strides of the
// layout), fills every output element and a guard zone before and after the output with a
// signalling-NaN sentinel that no softmax produces, runs the kernel (on the device: every copy in,
// the launch and every copy out ordered on one stream of its own, nothing read before that stream
// is synchronised; device_runner.cu says why) and then checks:
// the input is unchanged, the guards and the row padding still hold the sentinel, every output
// element was written, no CUDA error is left. Any breach, an exception or a CUDA error is a
// KernelFailure whose message names the kernel and what it did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/api/row_kernel.h"

namespace osvs {

/// A kernel broke its contract with memory or the runtime (threw, CUDA error, wrote outside its
/// output, left outputs unwritten, modified its input).
class KernelFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Extra elements between rows (x_stride = cols + x_pad, y_stride = cols + y_pad).
struct Layout {
  std::int64_t x_pad = 0;
  std::int64_t y_pad = 0;
};

/// A batch of equal-length rows as floats (each exactly a value of the kernel's input type).
using Rows = std::vector<std::vector<float>>;

/// The kernel's outputs, rows * cols, converted exactly to float.
struct RowOutputs {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<float> y;
  const float* row(std::int64_t i) const { return y.data() + i * cols; }
};

/// Runs k on the batch. Throws KernelFailure (see above), std::invalid_argument for a batch the
/// kernel does not accept (rows of different lengths, values not exact in its input type,
/// cols above its max_cols, a padded layout for a kernel that is not strided) and
/// DeviceUnavailable for a device kernel where no device is usable.
RowOutputs run_row_kernel(const RowKernel& k, const Rows& rows, Layout layout = {});

/// No usable CUDA device (or a build without CUDA): device kernels cannot run here.
class DeviceUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Whether device kernels can run in this process; *why_not says why not.
bool device_available(std::string* why_not);

/// Whether the kernel can run in this process; *why_not says why not.
bool runnable(const RowKernel& k, std::string* why_not);

namespace detail {
/// Pointers to the device copies of the images, in their order, and the stream to launch on.
using DeviceLaunch = std::function<void(const std::vector<unsigned char*>& images, void* stream)>;

/// One launch on byte images (the row and merge runners' device half): copies every image to
/// the device on a stream of its own and waits for the copies, calls `launch` with their device
/// addresses and that stream, checks that no CUDA error is left (a KernelFailure naming `who`
/// otherwise), waits for the stream and the device, and copies every image back on the same
/// stream, read only once it is synchronised. DeviceUnavailable where no device is usable.
void run_on_device(const std::string& who, const std::vector<std::vector<unsigned char>*>& images,
                   const DeviceLaunch& launch);

/// The device memory free now (cudaMemGetInfo), for a law to check that its launch fits before
/// making it. DeviceUnavailable where no device is usable.
std::size_t device_free_bytes();
}  // namespace detail

}  // namespace osvs
