// A testbed program that declares a defect its kernel does not have: it must fail.
#include "misbehaving_kernels.h"

OSVS_REGISTER_ROW_KERNEL(good_softmax) {
  return osvs::test::host_kernel("test.good_softmax", osvs::test::good_softmax)
      .known_defect("accuracy", "declared by mistake");
}
