// Softmax mutants: kernels deliberately broken in one step, each run in place of the kernel it
// was derived from (mutation testing). The entries are mutation/'s, built from schedule policies
// (mutation/README.md); mutation/ registers them here, so that a case naming one (properties'
// Case::mutant, a regression file's "mutation") resolves in any program that registered them
// (osvs_mutation, and `osvs replay` for the counterexamples a mutation run writes).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "osvs/kernels/executor.h"

namespace osvs {

struct SoftmaxMutant {
  const char* name;         ///< stable: reports and regression files name it ("shuffle_up")
  const char* defect;       ///< one sentence: what is broken
  KernelKind original;      ///< the kernel it stands in for, always with the hardened combine
  SoftmaxKernelFns kernel;  ///< its launcher and, where the CPU model replays it, its model
  const char* device_only;  ///< why the CPU model cannot replay it (kernel.model is nullptr)
};

/// Adds `mutant` (static storage: the registry keeps the pointer) to the registry. Registering
/// the same entry again does nothing; another entry under a registered name, or one without a
/// name, throws std::invalid_argument.
void register_softmax_mutant(const SoftmaxMutant* mutant);

/// Every registered mutant, in registration order.
std::vector<const SoftmaxMutant*> registered_softmax_mutants();

/// The registered mutant named `name`; throws std::invalid_argument naming the registered ones
/// (or saying that this program registered none) for any other name.
const SoftmaxMutant& find_softmax_mutant(std::string_view name);

/// An executor that runs `mutant` in place of its original kernel and is `inner` (which must
/// outlive it) in everything else: its name, device and exp, its staging (inner.run_softmax),
/// its combine, warp and harness runs. A softmax batch of another kernel or combine than the
/// mutant's original (the hardened combine) is an InvalidLaunch.
std::unique_ptr<Executor> mutant_executor(Executor& inner, const SoftmaxMutant& mutant);

}  // namespace osvs
