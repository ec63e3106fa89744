// main() of a kernel test built by osvs_add_kernel_test: the kernels registered by the linked
// adapters, under every law.
#include "osvs/api/testbed.h"

int main(int argc, char** argv) {
  return osvs::run_testbed(argc, argv);
}
