// The CUDA attention executor's entry point for builds without CUDA: it says why there is none.
#include "osvs/kernels/attention/attention_executor.h"

namespace osvs {

std::unique_ptr<AttentionExecutor> make_cuda_attention_executor(std::string* why_not) {
  if (why_not) *why_not = "osvs was built without CUDA (OSVS_WITH_CUDA=OFF)";
  return nullptr;
}

}  // namespace osvs
