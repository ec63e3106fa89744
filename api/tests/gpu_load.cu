// osvs_gpu_load SECONDS: a third process on the GPU for the concurrent-runner test. For SECONDS it
// keeps the copy engines and the SMs busy the way another user's job would: 256 MiB copies from
// and to pageable memory on the legacy stream, and a kernel that holds every SM for about a
// millisecond a launch. It prints "loading" once the first round has run (the test waits for
// that line), and a count of what it did at the end. Exit 77 (ctest's skip) where no device is
// usable, 2 on a bad argument, 1 on a CUDA error.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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
  const std::size_t bytes = std::size_t{256} << 20;
  std::vector<unsigned char> host(bytes, 0x5a);
  void* device = nullptr;
  float* sink = nullptr;
  if (!ok(cudaMalloc(&device, bytes), "cudaMalloc") ||
      !ok(cudaMalloc(&sink, 4096 * 4), "cudaMalloc"))
    return 1;
  int sms = 0;
  if (!ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count")) return 1;
  const auto start = std::chrono::steady_clock::now();
  long copies = 0, launches = 0;
  bool announced = false;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
         seconds) {
    spin<<<4 * sms, 256>>>(2'000'000, sink);
    ++launches;
    if (!ok(cudaGetLastError(), "launch spin")) return 1;
    if (!ok(cudaMemcpy(device, host.data(), bytes, cudaMemcpyHostToDevice), "copy in")) return 1;
    if (!ok(cudaMemcpy(host.data(), device, bytes, cudaMemcpyDeviceToHost), "copy out")) return 1;
    copies += 2;
    if (!announced) {
      std::printf("osvs_gpu_load: loading for %g s\n", seconds);
      std::fflush(stdout);
      announced = true;
    }
  }
  if (!ok(cudaDeviceSynchronize(), "synchronise")) return 1;
  std::printf("osvs_gpu_load: %ld copies of 256 MiB and %ld kernel launches in %g s\n", copies,
              launches, seconds);
  cudaFree(device);
  cudaFree(sink);
  return 0;
}
