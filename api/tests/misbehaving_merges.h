// Host merge kernels that break one thing each, for the tests of the testbed's merge half.
#pragma once

#include "osvs/api/merge_host_io.h"
#include "osvs/mutation/merge_mutants.h"
#include "osvs/osvs.h"

namespace osvs::test {

/// The CPU model's merge without its -inf guards (the merge mutant empty_gives_nan):
/// an empty partial's o is multiplied by 0 and two empty partials give NaN.
inline void merge_without_empty_guards(const MergeProblem& p) {
  static const mutation::MergeMutant& mutant = *mutation::find_merge_mutant("empty_gives_nan");
  store_result(p, mutant.cpu_model(operand_a(p), operand_b(p), p.base));
}

}  // namespace osvs::test
