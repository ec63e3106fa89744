// The device half of the runner: copies the byte images in, launches on a stream of its own,
// synchronises and copies everything (guards included) back. Every CUDA call's status is
// checked; a kernel that leaves an error behind is named in the KernelFailure.
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

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

void run_on_device(const std::string& who, const std::vector<std::vector<unsigned char>*>& images,
                   const DeviceLaunch& launch) {
  std::string why;
  if (!device_available(&why)) throw DeviceUnavailable(why);
  // Errors left by earlier work are not this kernel's: report them as such.
  check(cudaDeviceSynchronize(), "before " + who + ": the device already holds an error");
  std::vector<std::unique_ptr<DeviceBytes>> copies;
  std::vector<unsigned char*> pointers;
  for (const std::vector<unsigned char>* image : images) {
    copies.push_back(std::make_unique<DeviceBytes>(image->size()));
    pointers.push_back(static_cast<unsigned char*>(copies.back()->p));
    check(cudaMemcpy(copies.back()->p, image->data(), image->size(), cudaMemcpyHostToDevice),
          "copy an image in");
  }
  Stream stream;
  launch(pointers, stream.s);
  const cudaError_t launched = cudaGetLastError();
  if (launched != cudaSuccess)
    throw KernelFailure(who + " left a CUDA error after its launch: " + cudaGetErrorName(launched) +
                        " (" + cudaGetErrorString(launched) + ")");
  const cudaError_t done = cudaStreamSynchronize(stream.s);
  if (done != cudaSuccess)
    throw KernelFailure(who + " failed on the device: " + cudaGetErrorName(done) + " (" +
                        cudaGetErrorString(done) + ")");
  check(cudaDeviceSynchronize(), who + ": work outside its stream failed");
  for (std::size_t i = 0; i < images.size(); ++i)
    check(cudaMemcpy(images[i]->data(), pointers[i], images[i]->size(), cudaMemcpyDeviceToHost),
          "copy an image out");
}

}  // namespace detail
}  // namespace osvs
