// A testbed program whose kernel breaks a law it claims: it must fail, print the first
// counterexample and save the shrunk case.
#include "misbehaving_kernels.h"

OSVS_REGISTER_ROW_KERNEL(unsafe_softmax) {
  return osvs::test::host_kernel("test.unsafe_softmax", osvs::test::unsafe_softmax);
}
