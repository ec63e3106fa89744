// The GPU executor of the combine grid in a build without CUDA: none.
#include <stdexcept>

#include "osvs/exhaustive/grid/grid_run.h"

namespace osvs::exhaustive::grid {

bool grid_device_present(std::string* why_not) {
  if (why_not) *why_not = "osvs was built without CUDA (OSVS_WITH_CUDA=OFF)";
  return false;
}

GridResult run_grid_on_device(CombineKind, const GridSpec&) {
  throw std::runtime_error("combine grid on the device: osvs was built without CUDA");
}

}  // namespace osvs::exhaustive::grid
