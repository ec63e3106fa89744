// ExecutorIdentity: what every executor says of itself (the softmax kernels' Executor,
// executor.h, and the attention kernels' AttentionExecutor, attention/attention_executor.h): its
// name, whether its results come from a GPU, and where they come from, for reports.
#pragma once

#include <string>

namespace osvs {

class ExecutorIdentity {
 public:
  virtual ~ExecutorIdentity() = default;
  /// "cpu" or "cuda".
  virtual const char* name() const = 0;
  /// True when results come from a GPU (selects the exp accuracy used by bounds).
  virtual bool is_gpu() const = 0;
  /// Human-readable description of where the results come from (device name, driver, exp and
  /// model options; "cpu model" for the host).
  virtual std::string describe() const = 0;
};

}  // namespace osvs
