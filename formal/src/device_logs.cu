// CUDA's logs over a few inputs, for formal.log_facts: one thread per input.
#include <cuda_runtime.h>

#include <stdexcept>

#include "cuda_check.cuh"
#include "osvs/formal/device_logs.h"
#include "osvs/kernels/portable_log.h"

namespace osvs::formal {
namespace {

enum class DeviceLog { Logf, Log2f, PortableLogf, PortableLog2f };

DeviceLog device_log(const std::string& name) {
  if (name == "cuda_logf") return DeviceLog::Logf;
  if (name == "cuda_log2f") return DeviceLog::Log2f;
  if (name == "cuda_portable_logf") return DeviceLog::PortableLogf;
  if (name == "cuda_portable_log2f") return DeviceLog::PortableLog2f;
  throw std::runtime_error("evaluate_log_on_device: no device log '" + name + "'");
}

__global__ void evaluate_kernel(DeviceLog which, const float* in, float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (which) {
    case DeviceLog::Logf:
      out[i] = logf(in[i]);
      break;
    case DeviceLog::Log2f:
      out[i] = log2f(in[i]);
      break;
    case DeviceLog::PortableLogf:
      out[i] = portable_logf(in[i]);
      break;
    case DeviceLog::PortableLog2f:
      out[i] = portable_log2f(in[i]);
      break;
  }
}

constexpr int kBlock = 128;

}  // namespace

void evaluate_log_on_device(const std::string& name, const float* in, float* out, std::size_t n) {
  const DeviceLog which = device_log(name);
  if (n == 0) return;
  // One stream orders the copies (pinned staging, cuda_check.cuh's StreamBuffer) with the launch.
  const cudaStream_t stream = cudaStreamPerThread;
  cuda::StreamBuffer<float> inputs(n, stream), outputs(n, stream);
  inputs.upload(in);
  const auto blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  evaluate_kernel<<<blocks, kBlock, 0, stream>>>(which, inputs.get(), outputs.get(), n);
  cuda::check_stream_launch("evaluate_kernel", stream);
  outputs.download(out);
}

}  // namespace osvs::formal
