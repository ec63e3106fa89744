// CUDA's exps over a range of bit patterns (one thread per input, results copied back in chunks)
// or over given inputs.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "cuda_check.cuh"
#include "osvs/exhaustive/device_exps.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_exp.h"

namespace osvs::exhaustive {
namespace {

__device__ float apply(DeviceExp which, float x) {
  switch (which) {
    case DeviceExp::Expf:
      return expf(x);
    case DeviceExp::Exp2f:
      return exp2f(x);
    case DeviceExp::FastExpf:
      return __expf(x);
    case DeviceExp::PortableExpf:
      return portable_expf(x);
  }
  return 0.0f;
}

__global__ void evaluate_kernel(DeviceExp which, std::uint64_t first, std::uint64_t stride,
                                std::size_t count, float* out) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  out[i] = apply(which, bits_float(static_cast<std::uint32_t>(first + i * stride)));
}

__global__ void evaluate_at_kernel(DeviceExp which, const float* in, float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply(which, in[i]);
}

/// Inputs per launch: 2^26 floats (256 MiB) keep the device buffer modest.
constexpr std::size_t kLaunchInputs = std::size_t{1} << 26;
constexpr int kBlock = 256;

}  // namespace

DeviceDescription describe_device() {
  DeviceDescription d;
  d.nvcc = OSVS_NVCC_VERSION;
  d.architectures = OSVS_CUDA_ARCHITECTURES;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    d.why_absent = status != cudaSuccess ? cudaGetErrorString(status) : "no CUDA device";
    return d;
  }
  cudaDeviceProp prop{};
  OSVS_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  OSVS_CUDA_CHECK(cudaDriverGetVersion(&d.driver_cuda_version));
  OSVS_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  d.present = true;
  d.name = prop.name;
  d.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  return d;
}

void evaluate_on_device(DeviceExp which, std::uint64_t first, std::uint64_t stride,
                        std::size_t count, float* out) {
  cuda::DeviceBuffer<float> buffer(std::min(count, kLaunchInputs));
  for (std::size_t done = 0; done < count; done += kLaunchInputs) {
    const std::size_t n = std::min(kLaunchInputs, count - done);
    const auto blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
    evaluate_kernel<<<blocks, kBlock>>>(which, first + done * stride, stride, n, buffer.get());
    cuda::check_launch("evaluate_kernel");
    OSVS_CUDA_CHECK(
        cudaMemcpy(out + done, buffer.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
  }
}

void evaluate_on_device_at(DeviceExp which, const float* in, std::size_t n, float* out) {
  if (n == 0) return;
  // The copies and the launch in order on one stream (plain cudaMemcpyAsync: this library does
  // not link kernels' pinned staging), which the last copy's synchronisation waits for.
  const cudaStream_t stream = cudaStreamPerThread;
  cuda::DeviceBuffer<float> inputs(n), outputs(n);
  OSVS_CUDA_CHECK(
      cudaMemcpyAsync(inputs.get(), in, n * sizeof(float), cudaMemcpyHostToDevice, stream));
  const auto blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  evaluate_at_kernel<<<blocks, kBlock, 0, stream>>>(which, inputs.get(), outputs.get(), n);
  cuda::check_stream_launch("evaluate_at_kernel", stream);
  OSVS_CUDA_CHECK(
      cudaMemcpyAsync(out, outputs.get(), n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  OSVS_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace osvs::exhaustive
