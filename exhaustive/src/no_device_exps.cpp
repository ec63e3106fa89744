// A build without CUDA: no device to evaluate on.
#include <stdexcept>

#include "osvs/exhaustive/device_exps.h"

namespace osvs::exhaustive {

DeviceDescription describe_device() {
  DeviceDescription d;
  d.why_absent = "built without CUDA (OSVS_WITH_CUDA=OFF)";
  return d;
}

void evaluate_on_device(DeviceExp, std::uint64_t, std::uint64_t, std::size_t, float*) {
  throw std::runtime_error("evaluate_on_device: built without CUDA");
}

void evaluate_on_device_at(DeviceExp, const float*, std::size_t, float*) {
  throw std::runtime_error("evaluate_on_device_at: built without CUDA");
}

}  // namespace osvs::exhaustive
