// The CUDA entry points for builds without CUDA: they report why there is no device.
#include <stdexcept>

#include "osvs/kernels/bandwidth.h"
#include "osvs/kernels/executor.h"

namespace osvs {

int cuda_device_count() {
  return 0;
}

std::unique_ptr<Executor> make_cuda_executor(std::string* why_not, int) {
  if (why_not) *why_not = "osvs was built without CUDA (OSVS_WITH_CUDA=OFF)";
  return nullptr;
}

ShapeTiming time_softmax_kernels(std::int64_t, std::int64_t, const std::vector<TimedKernel>&, int) {
  throw std::runtime_error("osvs was built without CUDA (OSVS_WITH_CUDA=OFF): no kernel timing");
}

Bf16Timing time_fast_bf16(std::int64_t, std::int64_t, int) {
  throw std::runtime_error("osvs was built without CUDA (OSVS_WITH_CUDA=OFF): no kernel timing");
}

}  // namespace osvs
