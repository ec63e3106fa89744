// The mutants of the mutation run: the five broken combine operators (combine_mutants.h) on the
// 2-pass kernel, the eight structural bugs of the hardened 2-pass kernel and the three of the fast
// kernel (kernel_mutants.h: schedule policies), each a kernel configuration the property suite is
// run against.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "osvs/kernels/executor.h"
#include "osvs/mutation/kernel_mutants.h"
#include "osvs/properties/case.h"

namespace osvs::mutation {

struct Mutant {
  std::string name;    ///< the combine's or the kernel mutant's stable name ("mutant_no_rescale")
  std::string bug;     ///< one sentence: what is broken
  Case configuration;  ///< kernel, combine and mutant (Case::mutant) to run the suite on
  bool combine_level;  ///< a broken combine operator (its counterexample should be tiny)
  const KernelMutant* kernel = nullptr;  ///< a kernel mutant's entry; nullptr for a combine's
};

/// Every mutant: the combine mutants, then the kernel mutants (registering them), int32_index
/// last (its check may leave the device unusable).
std::vector<Mutant> all_mutants();

/// Why `mutant` cannot be run on `executor`, or nullopt when it can: the CPU model does not
/// replay races, uninitialised shared memory or 2^31-element batches.
std::optional<std::string> skip_reason(const Mutant& mutant, const Executor& executor);

/// Whether the mutant is judged by the large-index check instead of the generated suite: a
/// 32-bit index is wrong only beyond 2^31 elements, far outside what generators produce.
bool needs_large_index_check(const Mutant& mutant);

}  // namespace osvs::mutation
