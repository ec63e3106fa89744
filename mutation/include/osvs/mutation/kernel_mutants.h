// The kernel mutants of the catalogue: the hardened 2-pass kernel's (block_schedule_mutants.h)
// and the fast kernel's (fast_schedule_mutants.h), each the kernel templates instantiated with a
// schedule policy that changes one member of the order as written. Each is an entry of the
// softmax-mutant registry (osvs/kernels/softmax_mutants.h): a mutation run, a replay of its
// counterexamples and the tests run it through mutant_executor.
#pragma once

#include <vector>

#include "osvs/kernels/softmax_mutants.h"

namespace osvs::mutation {

struct KernelMutant {
  SoftmaxMutant entry;  ///< name, defect, original kernel, launcher and CPU model
  /// A defect only a batch of 2^31 elements or more shows (a 32-bit index): judged by
  /// check_large_index (large_index_check.h), not by the generated suite.
  bool large_index;
};

/// Every kernel mutant in the catalogue's order (the 2-pass kernel's, then the fast kernel's),
/// registered (register_softmax_mutant) by the first call.
const std::vector<const KernelMutant*>& kernel_mutants();

/// Registers every kernel mutant, so that cases and regression files naming one resolve: what a
/// program that reads such files calls first (the same registration as kernel_mutants()).
void register_kernel_mutants();

}  // namespace osvs::mutation
