// osvs_gpu_load SECONDS: a third process on the GPU for the concurrent-runner test. For SECONDS it
// keeps the copy engines and the SMs busy the way another user's job would: 256 MiB copies from
// and to pinned memory, back to back in both directions on streams of their own, and a kernel
// that holds every SM for about a millisecond a launch. It prints "loading" once the first round
// has run (the test waits for that line), and a count of what it did at the end. Exit 77 (ctest's
// skip) where no device is usable, 2 on a bad argument, 1 on a CUDA error.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool ok(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "osvs_gpu_load: %s: %s\n", what, cudaGetErrorString(status));
  return false;
}

/// Holds its SM for about `cycles` clock cycles and writes one value so it is not optimised out.
__global__ void spin(long long cycles, float* sink) {
  const long long start = clock64();
  float acc = threadIdx.x;
  while (clock64() - start < cycles) acc = acc * 0.999f + 1.0f;
  if (acc == -1.0f) sink[blockIdx.x] = acc;
}

}  // namespace

int main(int argc, char** argv) {
  char* end = nullptr;
  const double seconds = argc == 2 ? std::strtod(argv[1], &end) : -1;
  if (argc != 2 || end == argv[1] || *end != '\0' || !(seconds > 0 && seconds <= 3600)) {
    std::fprintf(stderr, "usage: osvs_gpu_load SECONDS   (0 < SECONDS <= 3600)\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("osvs_gpu_load: no usable CUDA device: skipped\n");
    return 77;
  }
  // Pinned buffers, so that the copies are pure DMA and keep both copy directions busy back to
  // back; one stream a direction and one for the SMs.
  const std::size_t bytes = std::size_t{256} << 20;
  void *host_in = nullptr, *host_out = nullptr, *dev_in = nullptr, *dev_out = nullptr;
  float* sink = nullptr;
  cudaStream_t in_stream, out_stream, sm_stream;
  if (!ok(cudaMallocHost(&host_in, bytes), "cudaMallocHost") ||
      !ok(cudaMallocHost(&host_out, bytes), "cudaMallocHost") ||
      !ok(cudaMalloc(&dev_in, bytes), "cudaMalloc") ||
      !ok(cudaMalloc(&dev_out, bytes), "cudaMalloc") ||
      !ok(cudaMalloc(&sink, 4096 * 4), "cudaMalloc") ||
      !ok(cudaStreamCreateWithFlags(&in_stream, cudaStreamNonBlocking), "stream") ||
      !ok(cudaStreamCreateWithFlags(&out_stream, cudaStreamNonBlocking), "stream") ||
      !ok(cudaStreamCreateWithFlags(&sm_stream, cudaStreamNonBlocking), "stream"))
    return 1;
  std::memset(host_in, 0x5a, bytes);
  int sms = 0;
  if (!ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count")) return 1;
  const auto start = std::chrono::steady_clock::now();
  long copies = 0, launches = 0;
  bool announced = false;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
         seconds) {
    for (int i = 0; i < 4; ++i) {  // a round: 4 x 256 MiB each way, 4 kernels of ~1 ms
      if (!ok(cudaMemcpyAsync(dev_in, host_in, bytes, cudaMemcpyHostToDevice, in_stream),
              "copy in") ||
          !ok(cudaMemcpyAsync(host_out, dev_out, bytes, cudaMemcpyDeviceToHost, out_stream),
              "copy out"))
        return 1;
      spin<<<4 * sms, 256, 0, sm_stream>>>(2'000'000, sink);
      if (!ok(cudaGetLastError(), "launch spin")) return 1;
      copies += 2;
      ++launches;
    }
    if (!ok(cudaDeviceSynchronize(), "round")) return 1;
    if (!announced) {
      std::printf("osvs_gpu_load: loading for %g s\n", seconds);
      std::fflush(stdout);
      announced = true;
    }
  }
  std::printf("osvs_gpu_load: %ld copies of 256 MiB and %ld kernel launches in %g s\n", copies,
              launches, seconds);
  cudaFreeHost(host_in);
  cudaFreeHost(host_out);
  cudaFree(dev_in);
  cudaFree(dev_out);
  cudaFree(sink);
  return 0;
}
