// Host merge kernels that break one thing each, for the tests of the testbed's merge half.
#pragma once

#include "osvs/api/merge_host_io.h"
#include "osvs/kernels/attention/merge_model.h"
#include "osvs/osvs.h"

namespace osvs::test {

/// The CPU model's merge without its -inf guards (MergeMutation::EmptyGivesNan):
/// an empty partial's o is multiplied by 0 and two empty partials give NaN.
inline void merge_without_empty_guards(const MergeProblem& p) {
  store_result(
      p, merge_states_model(operand_a(p), operand_b(p), p.base, MergeMutation::EmptyGivesNan));
}

}  // namespace osvs::test
