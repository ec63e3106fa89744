// mutant_executor (softmax_mutants.h): an executor decorator that runs a mutant in place of its
// original kernel, on the inner executor's staging, and forwards everything else.
#include <string>

#include "osvs/kernels/softmax_mutants.h"
#include "osvs/kernels/validate.h"

namespace osvs {
namespace {

class MutantExecutor final : public Executor {
 public:
  MutantExecutor(Executor& inner, const SoftmaxMutant& mutant) : inner_(inner), mutant_(mutant) {}

  // The inner executor's identity: the laws select on it (a second party, the exp's accuracy).
  const char* name() const override { return inner_.name(); }
  bool is_gpu() const override { return inner_.is_gpu(); }
  std::string describe() const override { return inner_.describe(); }

  const SoftmaxKernelFns& softmax_kernel(const SoftmaxBatch& b) const override {
    if (b.kernel != mutant_.original || b.combine != CombineKind::Hardened)
      throw InvalidLaunch(std::string("kernel mutant ") + mutant_.name + " applies to the " +
                          to_string(mutant_.original) +
                          " kernel with the hardened combine only (asked: " + to_string(b.kernel) +
                          " with " + to_string(b.combine) + ")");
    return mutant_.kernel;
  }
  SoftmaxResult run_softmax(const SoftmaxKernelFns& kernel, const SoftmaxBatch& b) override {
    return inner_.run_softmax(kernel, b);
  }
  std::vector<State> combine_pairs(CombineKind op, const std::vector<State>& a,
                                   const std::vector<State>& b) override {
    return inner_.combine_pairs(op, a, b);
  }
  std::vector<State> combine_pairs_in(DType type, CombineKind op, const std::vector<State>& a,
                                      const std::vector<State>& b) override {
    return inner_.combine_pairs_in(type, op, a, b);
  }
  std::vector<State> warp_reduce(CombineKind op, const std::vector<State>& lanes) override {
    return inner_.warp_reduce(op, lanes);
  }
  HarnessResult run_harness(const HarnessBatch& b) override { return inner_.run_harness(b); }

 private:
  Executor& inner_;
  const SoftmaxMutant& mutant_;
};

}  // namespace

std::unique_ptr<Executor> mutant_executor(Executor& inner, const SoftmaxMutant& mutant) {
  return std::make_unique<MutantExecutor>(inner, mutant);
}

}  // namespace osvs
