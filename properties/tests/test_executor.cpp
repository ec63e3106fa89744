#include "test_executor.h"

#include <memory>

namespace osvs::test {
namespace {
std::unique_ptr<Executor> g_executor;
std::string g_reason;
}  // namespace

void select_executor(const std::string& name) {
  g_reason.clear();
  g_executor = make_executor(name, &g_reason);
  if (!g_executor && g_reason.empty()) g_reason = "executor '" + name + "' is unavailable";
}

Executor* executor() {
  return g_executor.get();
}

const std::string& unavailable_reason() {
  return g_reason;
}

}  // namespace osvs::test
