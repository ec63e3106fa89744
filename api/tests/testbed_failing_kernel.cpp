// A testbed program whose kernels break laws they claim: it must fail, print the first
// counterexample and save the shrunk case.
#include "misbehaving_kernels.h"
#include "misbehaving_merges.h"

OSVS_REGISTER_ROW_KERNEL(unsafe_softmax) {
  return osvs::test::host_kernel("test.unsafe_softmax", osvs::test::unsafe_softmax);
}

// A merge kernel that breaks the identity law it does not declare broken.
OSVS_REGISTER_MERGE_KERNEL(merge_without_empty_guards) {
  return osvs::MergeKernel("test.merge_without_empty_guards", osvs::Where::Host)
      .run(osvs::test::merge_without_empty_guards);
}
