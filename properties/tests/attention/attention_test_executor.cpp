#include "attention_test_executor.h"

#include <memory>

namespace osvs::test {
namespace {
std::unique_ptr<AttentionExecutor> selected;
std::string reason;
}  // namespace

void select_attention_executor(const std::string& name) {
  selected = name == "cuda" ? make_cuda_attention_executor(&reason) : make_cpu_attention_executor();
}

AttentionExecutor* attention_executor() {
  return selected.get();
}

const std::string& attention_unavailable_reason() {
  return reason;
}

AttentionExecutor& cpu_attention_executor() {
  static const std::unique_ptr<AttentionExecutor> cpu = make_cpu_attention_executor();
  return *cpu;
}

}  // namespace osvs::test
