// Stand-in properties and a stand-in GPU executor, so that replay's bookkeeping (expectations,
// skips, errors) is tested independently of the real registry.
#pragma once

#include <stdexcept>
#include <string_view>

#include "osvs/replay/replay.h"

namespace osvs::testing {

/// Holds iff the case's first state has d == 1 (so a file decides its own verdict).
inline Verdict d_is_one(const Case& c, Executor&) {
  if (c.states.empty()) throw std::invalid_argument("needs one state");
  if (c.states[0].d == 1.0f) return Verdict::pass();
  return Verdict::fail("d is not 1", {Evidence{"d", c.states[0].d, 1.0, 1.0, 0.0}});
}

inline bool always_claimed(const Case&) {
  return true;
}

inline const PropertyInfo* fake_lookup(std::string_view name) {
  static const PropertyInfo d_one{"d_is_one", "the first state's d is 1", true, &d_is_one,
                                  &always_claimed};
  return name == d_one.name ? &d_one : nullptr;
}

/// Claims to be a GPU; runs nothing (the fake property never calls it).
class FakeGpuExecutor final : public Executor {
 public:
  const char* name() const override { return "cuda"; }
  bool is_gpu() const override { return true; }
  std::string describe() const override { return "stand-in GPU"; }
  SoftmaxResult run_softmax(const SoftmaxKernelFns&, const SoftmaxBatch&) override {
    throw std::logic_error("not a GPU");
  }
  std::vector<State> combine_pairs(CombineKind, const std::vector<State>&,
                                   const std::vector<State>&) override {
    throw std::logic_error("not a GPU");
  }
  std::vector<State> warp_reduce(CombineKind, const std::vector<State>&) override {
    throw std::logic_error("not a GPU");
  }
  HarnessResult run_harness(const HarnessBatch&) override { throw std::logic_error("not a GPU"); }
};

}  // namespace osvs::testing
