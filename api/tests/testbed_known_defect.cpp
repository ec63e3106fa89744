// A testbed program whose kernel declares its defects: it passes only because the testbed finds
// a counterexample for each declared defect (and saves it as a documented defect).
#include "misbehaving_kernels.h"
#include "misbehaving_merges.h"

OSVS_REGISTER_ROW_KERNEL(unsafe_softmax) {
  return osvs::RowKernel("test.unsafe_softmax", osvs::Where::Host)
      .run(osvs::test::unsafe_softmax)
      .accuracy(osvs::Accuracy::ulps(4))
      .exact_shift_invariant()
      .known_defect("accuracy", "no max subtraction: exp overflows above 88.7")
      .known_defect("sum_to_one", "no max subtraction: exp overflows above 88.7")
      .known_defect("permutation", "judged within the contract, which overflow breaks")
      .known_defect("shift_invariance", "exp(x + c) is not exp(x) times a constant in float");
}

// A merge with the textbook formula's missing -inf guards (the merge mutant empty_gives_nan): the
// identity law must find it, through the testbed's merge half, as a declared defect.
OSVS_REGISTER_MERGE_KERNEL(merge_without_empty_guards) {
  return osvs::MergeKernel("test.merge_without_empty_guards", osvs::Where::Host)
      .run(osvs::test::merge_without_empty_guards)
      .lse_bases({osvs::LseBase::E, osvs::LseBase::Two})
      .known_defect("identity", "an empty partial's o is multiplied by 0: NaN garbage gives NaN")
      .known_defect("accuracy", "two empty partials give -inf - -inf = NaN, not the empty result")
      .known_defect("associativity", "two empty partials give NaN, not the empty result")
      .known_defect("tree_invariance", "two empty partials give NaN, not the empty result");
}
