// Status checking for every CUDA runtime call: a failure throws with the call, file and line.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "osvs/kernels/cuda/pinned_copy.h"

#define OSVS_CUDA_CHECK(call)                                                                     \
  do {                                                                                            \
    const cudaError_t osvs_status_ = (call);                                                      \
    if (osvs_status_ != cudaSuccess)                                                              \
      throw std::runtime_error(std::string(#call) + " failed at " + __FILE__ + ":" +              \
                               std::to_string(__LINE__) + ": " + cudaGetErrorName(osvs_status_) + \
                               ": " + cudaGetErrorString(osvs_status_));                          \
  } while (0)

namespace osvs::cuda {

/// Owning device allocation of n elements of T.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n) : n_(n) {
    if (n_ > 0) OSVS_CUDA_CHECK(cudaMalloc(&ptr_, n_ * sizeof(T)));
  }
  DeviceBuffer(const T* host, std::size_t n) : DeviceBuffer(n) { upload(host); }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  /// Copies in on the legacy stream (where this buffer's users launch), through pinned staging.
  void upload(const T* host) { copy_to_device(ptr_, host, n_ * sizeof(T), cudaStreamLegacy); }
  /// Copies out on the legacy stream, after the work queued there, through pinned staging.
  void download(T* host) const { copy_to_host(host, ptr_, n_ * sizeof(T), cudaStreamLegacy); }
  T* get() const { return ptr_; }
  std::size_t size() const { return n_; }

 private:
  T* ptr_ = nullptr;
  std::size_t n_;
};

/// Owning device allocation of n elements of T ordered on `stream` (cudaMallocAsync /
/// cudaFreeAsync, copies through pinned staging on the stream): unlike DeviceBuffer it
/// never synchronises the whole device, so that several host threads, each on its own stream
/// (cudaStreamPerThread), keep the device busy together.
template <class T>
class StreamBuffer {
 public:
  StreamBuffer(std::size_t n, cudaStream_t stream) : n_(n), stream_(stream) {
    if (n_ > 0)
      OSVS_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&ptr_), n_ * sizeof(T), stream_));
  }
  ~StreamBuffer() {
    if (ptr_) cudaFreeAsync(ptr_, stream_);
  }
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;

  /// Copies in on the stream and waits until the bytes are on the device.
  void upload(const T* host) { copy_to_device(ptr_, host, n_ * sizeof(T), stream_); }
  /// Copies to the host and waits for the copy (and what came before it on the stream).
  void download(T* host) const { copy_to_host(host, ptr_, n_ * sizeof(T), stream_); }
  T* get() const { return ptr_; }

 private:
  T* ptr_ = nullptr;
  std::size_t n_;
  cudaStream_t stream_;
};

/// Checks the launch just made on `stream` and waits for that stream only.
inline void check_stream_launch(const char* what, cudaStream_t stream) {
  const cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess)
    throw std::runtime_error(std::string("launch of ") + what +
                             " failed: " + cudaGetErrorString(launch));
  const cudaError_t sync = cudaStreamSynchronize(stream);
  if (sync != cudaSuccess)
    throw std::runtime_error(std::string(what) +
                             " failed while running: " + cudaGetErrorString(sync));
}

/// Checks the launch just made and waits for it, so that errors surface at the right call.
inline void check_launch(const char* what) {
  const cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess)
    throw std::runtime_error(std::string("launch of ") + what +
                             " failed: " + cudaGetErrorString(launch));
  const cudaError_t sync = cudaDeviceSynchronize();
  if (sync != cudaSuccess)
    throw std::runtime_error(std::string(what) +
                             " failed while running: " + cudaGetErrorString(sync));
}

/// "NAME (sm_XY), CUDA driver D, runtime R" of device `device` (default 0), or "" with *why_not
/// set when it is not there (the failed query's error is cleared). Both executors start from it.
inline std::string describe_device(std::string* why_not, int device = 0) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count <= device || device < 0) {
    if (why_not)
      *why_not = status != cudaSuccess || count == 0
                     ? std::string("no usable CUDA device (cudaGetDeviceCount: ") +
                           (status != cudaSuccess ? cudaGetErrorString(status) : "0 devices") + ")"
                     : "no CUDA device " + std::to_string(device) + " (" + std::to_string(count) +
                           " visible)";
    cudaGetLastError();  // clear the error state of the failed query
    return "";
  }
  cudaDeviceProp prop{};
  int driver = 0, runtime = 0;
  try {
    OSVS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    OSVS_CUDA_CHECK(cudaDriverGetVersion(&driver));
    OSVS_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  } catch (const std::exception& e) {
    if (why_not) *why_not = e.what();
    return "";
  }
  return std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
         std::to_string(prop.minor) + "), CUDA driver " + std::to_string(driver) + ", runtime " +
         std::to_string(runtime);
}

/// The number of CUDA devices visible (0 when the query fails; its error is cleared).
inline int visible_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

}  // namespace osvs::cuda
