// The device half of the runner. Every transfer and the launch are ordered on one stream of the
// runner's own, every transfer is a DMA between device memory and pinned host memory, and nothing
// is read before that stream is synchronised:
//   1. each host image is copied into a pinned staging buffer of the runner's own, then to its
//      device image with cudaMemcpyAsync on the stream. Neither the old plain cudaMemcpy (ordered
//      on the legacy stream, which a non-blocking stream does not wait for) nor copies from
//      pageable memory are used: on the H200, with another process keeping the copy engines
//      busy, outputs of more than 64 KiB came back as the sentinel the runner had filled them
//      with ("left y[0][0] unwritten") through pageable copies, however they were ordered
//      (reports/gpu/2026-12-01-runner);
//   2. the stream is synchronised before the launch, so the inputs are complete on the device
//      whichever stream the kernel under test actually launches on;
//   3. the launch, then its stream and the whole device are synchronised (a kernel that ignores
//      the stream it is given is still waited for, and its errors are its own);
//   4. the images come back into the pinned buffers with cudaMemcpyAsync on the same stream and
//      are copied to the host images only after a final cudaStreamSynchronize.
// Every CUDA call's status is checked; a kernel that leaves an error behind is named in the
// KernelFailure.
#include <cuda_runtime.h>

#include <cstring>
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

/// Pinned host memory staging one image; kept per host thread and grown on demand, so that a
/// property run of thousands of launches allocates it a few times, not once a launch.
class PinnedStage {
 public:
  unsigned char* reserve(std::size_t n) {
    if (n > capacity_) {
      release();
      const std::size_t want = n < 4096 ? 4096 : n;
      check(cudaMallocHost(reinterpret_cast<void**>(&p_), want),
            "cudaMallocHost of " + std::to_string(want) + " bytes");
      capacity_ = want;
    }
    return p_;
  }
  ~PinnedStage() { release(); }

 private:
  void release() {
    if (p_) cudaFreeHost(p_);
    p_ = nullptr;
    capacity_ = 0;
  }
  unsigned char* p_ = nullptr;
  std::size_t capacity_ = 0;
};

/// This thread's staging buffers, one an image.
std::vector<PinnedStage>& stages(std::size_t images) {
  thread_local std::vector<PinnedStage> s;
  if (s.size() < images) s.resize(images);
  return s;
}

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
  std::vector<PinnedStage>& stage = stages(images.size());
  std::vector<std::unique_ptr<DeviceBytes>> copies;
  std::vector<unsigned char*> pointers;
  for (std::size_t i = 0; i < images.size(); ++i) {
    const std::vector<unsigned char>& image = *images[i];
    unsigned char* pinned = stage[i].reserve(image.size());
    if (!image.empty()) std::memcpy(pinned, image.data(), image.size());
    copies.push_back(std::make_unique<DeviceBytes>(image.size()));
    pointers.push_back(static_cast<unsigned char*>(copies.back()->p));
    check(cudaMemcpyAsync(copies.back()->p, pinned, image.size(), cudaMemcpyHostToDevice, stream.s),
          "copy an image in");
  }
  check(cudaStreamSynchronize(stream.s), "wait for the images to reach the device");
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
    check(cudaMemcpyAsync(stage[i].reserve(images[i]->size()), pointers[i], images[i]->size(),
                          cudaMemcpyDeviceToHost, stream.s),
          "copy an image out");
  check(cudaStreamSynchronize(stream.s), "wait for the images to come back");
  for (std::size_t i = 0; i < images.size(); ++i)
    if (!images[i]->empty())
      std::memcpy(images[i]->data(), stage[i].reserve(images[i]->size()), images[i]->size());
}

}  // namespace detail
}  // namespace osvs
