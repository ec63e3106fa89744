// The device half of the runner: copies the byte images in, launches on a stream of its own,
// synchronises and copies everything (guards included) back. Every CUDA call's status is
// checked; a kernel that leaves an error behind is named in the KernelFailure.
#include <cuda_runtime.h>

#include <string>

#include "osvs/api/runner.h"

namespace osvs {
namespace {

void check(cudaError_t status, const std::string& what) {
  if (status != cudaSuccess)
    throw std::runtime_error(what + ": " + cudaGetErrorName(status) + " (" +
                             cudaGetErrorString(status) + ")");
}

/// Device memory released on every path out of a launch.
struct DeviceBytes {
  void* p = nullptr;
  explicit DeviceBytes(std::size_t n) {
    check(cudaMalloc(&p, n == 0 ? 1 : n), "cudaMalloc of " + std::to_string(n) + " bytes");
  }
  ~DeviceBytes() { cudaFree(p); }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
};

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(s); }
};

}  // namespace

bool device_available(std::string* why_not) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (why_not)
      *why_not = std::string("no usable CUDA device (cudaGetDeviceCount: ") +
                 (status != cudaSuccess ? cudaGetErrorString(status) : "0 devices") + ")";
    cudaGetLastError();
    return false;
  }
  return true;
}

namespace detail {

void execute_on_device(const RowKernel& k, RowProblem p, std::vector<unsigned char>& x_image,
                       std::vector<unsigned char>& y_image, std::size_t guard_bytes) {
  std::string why;
  if (!device_available(&why)) throw DeviceUnavailable(why);
  const std::string who = "kernel '" + k.name() + "'";
  // Errors left by earlier work are not this kernel's: report them as such.
  check(cudaDeviceSynchronize(), "before " + who + ": the device already holds an error");
  DeviceBytes x(x_image.size()), y(y_image.size());
  Stream stream;
  check(cudaMemcpy(x.p, x_image.data(), x_image.size(), cudaMemcpyHostToDevice), "copy x in");
  check(cudaMemcpy(y.p, y_image.data(), y_image.size(), cudaMemcpyHostToDevice), "copy y in");
  p.x_ptr = x.p;
  p.y_ptr = static_cast<unsigned char*>(y.p) + guard_bytes;
  p.stream = stream.s;
  k(p);
  const cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess)
    throw KernelFailure(who + " left a CUDA error after its launch: " + cudaGetErrorName(launch) +
                        " (" + cudaGetErrorString(launch) + ")");
  const cudaError_t done = cudaStreamSynchronize(stream.s);
  if (done != cudaSuccess)
    throw KernelFailure(who + " failed on the device: " + cudaGetErrorName(done) + " (" +
                        cudaGetErrorString(done) + ")");
  check(cudaDeviceSynchronize(), who + ": work outside its stream failed");
  check(cudaMemcpy(x_image.data(), x.p, x_image.size(), cudaMemcpyDeviceToHost), "copy x out");
  check(cudaMemcpy(y_image.data(), y.p, y_image.size(), cudaMemcpyDeviceToHost), "copy y out");
}

}  // namespace detail
}  // namespace osvs
