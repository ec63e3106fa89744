// The device launchers of the kernel mutants: defined, in builds with CUDA only, by
// src/cuda/two_pass_mutants.cu for every policy of block_schedule_mutants.h and by
// src/cuda/fast_mutants.cu for every policy of fast_schedule_mutants.h. Each enqueues the kernel
// under test's template instantiated with the policy; a failed launch throws.
#pragma once

#include "osvs/kernels/softmax_kernel_fns.h"

namespace osvs::mutation {

/// The hardened 2-pass kernel (online_two_pass) with schedule Schedule.
template <class Schedule>
void launch_two_pass_mutant(const SoftmaxLaunch& launch);

/// The fast kernel family (its plan of the row length, as launch_fast_softmax) with schedule
/// Schedule.
template <class Schedule>
void launch_fast_mutant(const SoftmaxLaunch& launch);

}  // namespace osvs::mutation
