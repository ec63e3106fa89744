#include "test_executor.h"

#include "selected_executor.h"

namespace osvs::test {
namespace {
SelectedExecutor<Executor> selected;
}  // namespace

void select_executor(const std::string& name) {
  selected.select(name, [&](std::string* why_not) { return make_executor(name, why_not); });
}

Executor* executor() {
  return selected.get();
}

const std::string& unavailable_reason() {
  return selected.unavailable_reason();
}

}  // namespace osvs::test
