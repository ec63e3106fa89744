// Pinned, chunked, double-buffered host <-> device copies (pinned_copy.h).
#include <cstring>
#include <map>
#include <string>

#include "cuda_check.cuh"
#include "osvs/kernels/cuda/pinned_copy.h"

namespace osvs::cuda {
namespace {

/// One thread's two pinned halves on one device, each with the event of the last DMA using it.
class Staging {
 public:
  Staging() {
    for (int h = 0; h < 2; ++h) {
      OSVS_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&half_[h]), kPinnedChunkBytes));
      OSVS_CUDA_CHECK(cudaEventCreateWithFlags(&done_[h], cudaEventDisableTiming));
    }
  }
  ~Staging() {
    for (int h = 0; h < 2; ++h) {
      if (done_[h]) {
        cudaEventSynchronize(done_[h]);
        cudaEventDestroy(done_[h]);
      }
      if (half_[h]) cudaFreeHost(half_[h]);
    }
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  unsigned char* half(int h) { return half_[h]; }
  cudaEvent_t done(int h) { return done_[h]; }

 private:
  unsigned char* half_[2] = {nullptr, nullptr};
  cudaEvent_t done_[2] = {nullptr, nullptr};
};

/// This thread's staging on the current device (events belong to a device).
Staging& staging() {
  int device = 0;
  OSVS_CUDA_CHECK(cudaGetDevice(&device));
  thread_local std::map<int, Staging> per_device;
  return per_device.try_emplace(device).first->second;
}

}  // namespace

void copy_to_device(void* device, const void* host, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  Staging& s = staging();
  auto* dst = static_cast<unsigned char*>(device);
  const auto* src = static_cast<const unsigned char*>(host);
  for (std::size_t off = 0, k = 0; off < n; off += kPinnedChunkBytes, ++k) {
    const std::size_t c = n - off < kPinnedChunkBytes ? n - off : kPinnedChunkBytes;
    const int h = static_cast<int>(k & 1);
    OSVS_CUDA_CHECK(cudaEventSynchronize(s.done(h)));  // the half's previous DMA has finished
    std::memcpy(s.half(h), src + off, c);
    OSVS_CUDA_CHECK(cudaMemcpyAsync(dst + off, s.half(h), c, cudaMemcpyHostToDevice, stream));
    OSVS_CUDA_CHECK(cudaEventRecord(s.done(h), stream));
  }
  OSVS_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void copy_to_host(void* host, const void* device, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  Staging& s = staging();
  auto* dst = static_cast<unsigned char*>(host);
  const auto* src = static_cast<const unsigned char*>(device);
  const std::size_t chunks = (n + kPinnedChunkBytes - 1) / kPinnedChunkBytes;
  const auto size_of_chunk = [&](std::size_t k) {
    const std::size_t off = k * kPinnedChunkBytes;
    return n - off < kPinnedChunkBytes ? n - off : kPinnedChunkBytes;
  };
  // DMA of chunk k into half k % 2 while the host copies chunk k - 1 out of the other half.
  for (std::size_t k = 0; k <= chunks; ++k) {
    if (k < chunks) {
      const int h = static_cast<int>(k & 1);
      OSVS_CUDA_CHECK(cudaMemcpyAsync(s.half(h), src + k * kPinnedChunkBytes, size_of_chunk(k),
                                      cudaMemcpyDeviceToHost, stream));
      OSVS_CUDA_CHECK(cudaEventRecord(s.done(h), stream));
    }
    if (k > 0) {
      const int h = static_cast<int>((k - 1) & 1);
      OSVS_CUDA_CHECK(cudaEventSynchronize(s.done(h)));
      std::memcpy(dst + (k - 1) * kPinnedChunkBytes, s.half(h), size_of_chunk(k - 1));
    }
  }
}

}  // namespace osvs::cuda
