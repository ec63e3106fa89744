// The device half of the runner in a build without CUDA: device kernels cannot run.
#include "osvs/api/runner.h"

namespace osvs {

bool device_available(std::string* why_not) {
  if (why_not) *why_not = "osvs was built without CUDA (OSVS_WITH_CUDA=OFF)";
  return false;
}

namespace detail {
void run_on_device(const std::string&, const std::vector<std::vector<unsigned char>*>&,
                   const DeviceLaunch&) {
  std::string why;
  device_available(&why);
  throw DeviceUnavailable(why);
}

std::size_t device_free_bytes() {
  std::string why;
  device_available(&why);
  throw DeviceUnavailable(why);
}
}  // namespace detail

}  // namespace osvs
