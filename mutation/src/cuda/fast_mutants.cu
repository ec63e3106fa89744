// The fast kernel's mutants on the device: the fast kernel family's launch (fast_launch_plan.cuh,
// the same code launch_fast_softmax runs) instantiated with each schedule policy of
// fast_schedule_mutants.h: the mutant is the kernel's own templates, one member changed.
#include "../mutant_launchers.h"
#include "fast_launch_plan.cuh"
#include "osvs/mutation/fast_schedule_mutants.h"

namespace osvs::mutation {

template <class Schedule>
void launch_fast_mutant(const SoftmaxLaunch& l) {
  cuda::fast::launch_fast<Schedule>(l.x, l.y, l.row_state, l.rows, l.cols, nullptr, l.stream,
                                    cuda::FastSplitPath::Auto);
}

#define OSVS_FAST_MUTANT_LAUNCHER(Policy, ...) \
  template void launch_fast_mutant<Policy>(const SoftmaxLaunch&);
OSVS_FAST_MUTANTS(OSVS_FAST_MUTANT_LAUNCHER)
#undef OSVS_FAST_MUTANT_LAUNCHER

}  // namespace osvs::mutation
