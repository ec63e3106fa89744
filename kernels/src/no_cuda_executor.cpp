// make_cuda_executor for builds without CUDA: always reports why there is no device executor.
#include "osvs/kernels/executor.h"

namespace osvs {

std::unique_ptr<Executor> make_cuda_executor(std::string* why_not) {
  if (why_not) *why_not = "osvs was built without CUDA (OSVS_WITH_CUDA=OFF)";
  return nullptr;
}

}  // namespace osvs
