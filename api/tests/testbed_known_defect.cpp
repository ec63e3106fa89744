// A testbed program whose kernel declares its defects: it passes only because the testbed finds
// a counterexample for each declared defect (and saves it as a documented defect).
#include "misbehaving_kernels.h"

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
