// The executor a property-test binary runs on, chosen once in main by `--executor=NAME`, and why
// it is unavailable when it is (the law suites then skip with that reason). One for each family
// of executors: test_executor.cpp (the reductions'), attention/attention_test_executor.cpp.
#pragma once

#include <memory>
#include <string>

namespace osvs::test {

template <class Executor>
class SelectedExecutor {
 public:
  /// Selects what make(&why_not) gives for `name`; where that is nullptr, the reason is what
  /// make wrote to why_not, or that the executor `name` is unavailable where it wrote nothing.
  template <class Make>
  void select(const std::string& name, Make make) {
    reason_.clear();
    executor_ = make(&reason_);
    if (!executor_ && reason_.empty()) reason_ = "executor '" + name + "' is unavailable";
  }

  /// The selected executor, or nullptr when it is unavailable.
  Executor* get() const { return executor_.get(); }
  /// Why the selected executor is unavailable ("" when it is available).
  const std::string& unavailable_reason() const { return reason_; }

 private:
  std::unique_ptr<Executor> executor_;
  std::string reason_;
};

}  // namespace osvs::test
