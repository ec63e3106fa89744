// Status checking for every CUDA runtime call: a failure throws with the call, file and line.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

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

  void upload(const T* host) {
    if (n_ > 0) OSVS_CUDA_CHECK(cudaMemcpy(ptr_, host, n_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(T* host) const {
    if (n_ > 0) OSVS_CUDA_CHECK(cudaMemcpy(host, ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return n_; }

 private:
  T* ptr_ = nullptr;
  std::size_t n_;
};

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

}  // namespace osvs::cuda
