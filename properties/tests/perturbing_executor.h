// PerturbingExecutor: the CPU model with one deliberate fault, so that each property can be shown
// to fail when the executor is wrong. It is an executor of its own (named "perturbed-cpu"), so the
// laws that need a second party (determinism, agreement with the CPU model) run on it; without
// faults it is a faithful second party.
#pragma once

#include <cmath>
#include <functional>
#include <memory>

#include "osvs/kernels/executor.h"

namespace osvs::test {

struct Faults {
  /// Applied to each combine_pairs result (a, b, result) -> result.
  std::function<State(State, State, State)> combine;
  /// Applied to each warp_reduce and harness root.
  std::function<State(State)> root;
  /// Applied to softmax results (of whichever kernel ran): (call number from 0, batch, result).
  std::function<void(int, const SoftmaxBatch&, SoftmaxResult&)> softmax;
};

class PerturbingExecutor final : public Executor {
 public:
  explicit PerturbingExecutor(Faults f) : faults_(std::move(f)), model_(make_cpu_executor()) {}
  const char* name() const override { return "perturbed-cpu"; }
  bool is_gpu() const override { return false; }
  std::string describe() const override { return "CPU model with a deliberate fault"; }

  SoftmaxResult run_softmax(const SoftmaxKernelFns& kernel, const SoftmaxBatch& b) override {
    SoftmaxResult r = model_->run_softmax(kernel, b);
    if (faults_.softmax) faults_.softmax(calls_, b, r);
    ++calls_;
    return r;
  }
  std::vector<State> combine_pairs(CombineKind k, const std::vector<State>& a,
                                   const std::vector<State>& b) override {
    std::vector<State> r = model_->combine_pairs(k, a, b);
    if (faults_.combine)
      for (std::size_t i = 0; i < r.size(); ++i) r[i] = faults_.combine(a[i], b[i], r[i]);
    return r;
  }
  std::vector<State> warp_reduce(CombineKind k, const std::vector<State>& lanes) override {
    std::vector<State> r = model_->warp_reduce(k, lanes);
    if (faults_.root)
      for (State& s : r) s = faults_.root(s);
    return r;
  }
  HarnessResult run_harness(const HarnessBatch& b) override {
    HarnessResult r = model_->run_harness(b);
    if (faults_.root)
      for (State& s : r.root) s = faults_.root(s);
    return r;
  }

 private:
  Faults faults_;
  std::unique_ptr<Executor> model_;
  int calls_ = 0;
};

/// x moved up by one ulp.
inline float one_ulp_up(float x) {
  return std::nextafter(x, __builtin_huge_valf());
}

}  // namespace osvs::test
