// A build without CUDA: no device to evaluate the logs on.
#include <stdexcept>

#include "osvs/formal/device_logs.h"

namespace osvs::formal {

void evaluate_log_on_device(const std::string&, const float*, float*, std::size_t) {
  throw std::runtime_error("evaluate_log_on_device: built without CUDA");
}

}  // namespace osvs::formal
