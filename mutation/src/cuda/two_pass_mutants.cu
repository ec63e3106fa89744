// The 2-pass kernel's mutants on the device: online_two_pass (softmax_kernels.cuh) with the
// hardened combine and each schedule policy of block_schedule_mutants.h, launched as the kernel
// under test is (launch_online_two_pass): the mutant is the kernel's own template, one member
// changed.
#include <stdexcept>
#include <string>

#include "../mutant_launchers.h"
#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/cuda/two_pass_launch.cuh"
#include "osvs/kernels/validate.h"
#include "osvs/mutation/block_schedule_mutants.h"

namespace osvs::mutation {

template <class Schedule>
void launch_two_pass_mutant(const SoftmaxLaunch& l) {
  if (!cuda::launch_online_two_pass<HardenedCombine, Schedule>(
          l.block, l.x, l.y, l.row_state, l.rows, l.cols, static_cast<cudaStream_t>(l.stream)))
    throw InvalidLaunch("unsupported block size " + std::to_string(l.block));
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("softmax launch failed: ") + cudaGetErrorString(status));
}

#define OSVS_TWO_PASS_MUTANT_LAUNCHER(Policy, ...) \
  template void launch_two_pass_mutant<Policy>(const SoftmaxLaunch&);
OSVS_TWO_PASS_ONE_MEMBER_MUTANTS(OSVS_TWO_PASS_MUTANT_LAUNCHER)
#undef OSVS_TWO_PASS_MUTANT_LAUNCHER
template void launch_two_pass_mutant<Int32Index>(const SoftmaxLaunch&);

}  // namespace osvs::mutation
