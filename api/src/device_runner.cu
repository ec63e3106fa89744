// The device half of the runner. Every transfer and the launch are ordered on one stream of the
// runner's own, every transfer is a DMA between device memory and pinned host memory, and nothing
// is read before that stream is synchronised:
//   1. each host image goes to its device image through pinned staging as a DMA on the stream
//      (osvs/kernels/cuda/pinned_copy.h), and the copy is waited for, so the inputs are complete
//      on the device whichever stream the kernel under test actually launches on. Neither the
//      old plain cudaMemcpy (ordered on the legacy stream, which a non-blocking stream does not
//      wait for) nor copies from pageable memory are used: on the H200, with another process
//      keeping the copy engines busy, outputs of more than 64 KiB came back as the sentinel the
//      runner had filled them with ("left y[0][0] unwritten") through pageable copies, however
//      they were ordered (reports/gpu/2026-12-01-runner);
//   2. the launch, then its stream and the whole device are synchronised (a kernel that ignores
//      the stream it is given is still waited for, and its errors are its own);
//   3. the images come back through the same staging on the same stream, each call returning
//      once its bytes are in the host image.
// Every CUDA call's status is checked; a kernel that leaves an error behind is named in the
// KernelFailure.
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "osvs/api/runner.h"
#include "osvs/kernels/cuda/pinned_copy.h"

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

/// The stream every transfer and the launch are ordered on; destroyed only after it is drained.
struct Stream {
  cudaStream_t s = nullptr;
  Stream() { check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Stream() {
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
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
  Stream stream;
  std::vector<std::unique_ptr<DeviceBytes>> copies;
  std::vector<unsigned char*> pointers;
  for (const std::vector<unsigned char>* image : images) {
    copies.push_back(std::make_unique<DeviceBytes>(image->size()));
    pointers.push_back(static_cast<unsigned char*>(copies.back()->p));
    cuda::copy_to_device(copies.back()->p, image->data(), image->size(), stream.s);  // and waits
  }
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
    cuda::copy_to_host(images[i]->data(), pointers[i], images[i]->size(), stream.s);
}

std::size_t device_free_bytes() {
  std::string why;
  if (!device_available(&why)) throw DeviceUnavailable(why);
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

}  // namespace detail
}  // namespace osvs
