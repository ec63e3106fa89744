#include "attention_test_executor.h"

#include <memory>

#include "selected_executor.h"

namespace osvs::test {
namespace {
SelectedExecutor<AttentionExecutor> selected;
}  // namespace

void select_attention_executor(const std::string& name) {
  selected.select(name, [&](std::string* why_not) {
    return name == "cuda" ? make_cuda_attention_executor(why_not) : make_cpu_attention_executor();
  });
}

AttentionExecutor* attention_executor() {
  return selected.get();
}

const std::string& attention_unavailable_reason() {
  return selected.unavailable_reason();
}

AttentionExecutor& cpu_attention_executor() {
  static const std::unique_ptr<AttentionExecutor> cpu = make_cpu_attention_executor();
  return *cpu;
}

}  // namespace osvs::test
