// The kernel mutants as registry entries: each schedule policy's device launcher (src/cuda/, in
// builds with CUDA) and, where the CPU model replays the policy, the CPU model instantiated with
// it (two_pass_model.h, fast_model.h): the kernel under test's templates, one member changed.
#include "osvs/mutation/kernel_mutants.h"

#include <cstdint>

#include "mutant_launchers.h"
#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/fast_model.h"
#include "osvs/kernels/two_pass_model.h"
#include "osvs/mutation/block_schedule_mutants.h"
#include "osvs/mutation/fast_schedule_mutants.h"

namespace osvs::mutation {
namespace {

using LaunchFn = void (*)(const SoftmaxLaunch&);
using ModelFn = void (*)(const SoftmaxBatch&, SoftmaxResult&);

/// Whether a 2-pass schedule indexes in fewer than 64 bits: wrong only past 2^31 elements.
template <class Schedule>
constexpr bool narrow_index = sizeof(typename Schedule::Index) < sizeof(std::int64_t);

/// Why the CPU model cannot replay the 2-pass kernel under Schedule, or nullptr when it can. The
/// model follows the shuffle offsets and direction, the loop's end and the divisor; a missing
/// barrier is a race, a missing lane guard a read of shared memory no warp wrote, and a 32-bit
/// index goes wrong only past 2^31 elements: effects only the device shows.
template <class Schedule>
constexpr const char* two_pass_device_only() {
  if constexpr (narrow_index<Schedule>)
    return "a 2^31-element batch, 17 GiB of device memory";
  else if constexpr (!Schedule::kSyncBeforeSharedStage || !Schedule::kSyncBeforeBroadcast ||
                     !Schedule::kLaneGuard)
    return "a race or uninitialised shared memory";
  else
    return nullptr;
}

/// The CPU model of the 2-pass kernel under Schedule, instantiated only where it replays it.
template <class Schedule>
constexpr ModelFn two_pass_model() {
  if constexpr (two_pass_device_only<Schedule>() == nullptr)
    return &model_two_pass_rows<HardenedCombine, Schedule>;
  else
    return nullptr;
}

/// A device launcher (src/cuda/), or nullptr in a build without CUDA: the CPU model only.
#if defined(OSVS_WITH_CUDA)
#define OSVS_DEVICE_LAUNCH(launcher) (&launcher)
#else
#define OSVS_DEVICE_LAUNCH(launcher) nullptr
#endif

/// The hardened 2-pass kernel under Schedule.
template <class Schedule>
constexpr KernelMutant two_pass_mutant(const char* name, const char* defect) {
  return {{name, defect, KernelKind::TwoPass,
           SoftmaxKernelFns{{.name = name},
                            OSVS_DEVICE_LAUNCH(launch_two_pass_mutant<Schedule>),
                            two_pass_model<Schedule>()},
           two_pass_device_only<Schedule>()},
          narrow_index<Schedule>};
}

/// The fast kernel under Schedule: the CPU model replays every fast schedule.
template <class Schedule>
constexpr KernelMutant fast_mutant(const char* name, const char* defect) {
  return {{name, defect, KernelKind::Fast,
           SoftmaxKernelFns{{.name = name},
                            OSVS_DEVICE_LAUNCH(launch_fast_mutant<Schedule>),
                            &fast_model_rows<Schedule>},
           nullptr},
          false};
}

/// A catalogue row of the 2-pass kernel (OSVS_TWO_PASS_ONE_MEMBER_MUTANTS's) and of the fast
/// kernel (OSVS_FAST_MUTANTS's).
#define OSVS_TWO_PASS_MUTANT(Policy, member, value, name, defect) \
  two_pass_mutant<Policy>(#name, defect),
#define OSVS_FAST_MUTANT(Policy, member, value, name, defect) fast_mutant<Policy>(#name, defect),

/// The catalogue, in its order: the 2-pass kernel's mutants, then the fast kernel's.
constexpr KernelMutant kKernelMutants[] = {
    OSVS_TWO_PASS_ONE_MEMBER_MUTANTS(OSVS_TWO_PASS_MUTANT)  // and the one that changes a type:
    two_pass_mutant<Int32Index>("int32_index", "`row * N` in 32-bit int (wrong for M * N >= 2^31)"),
    OSVS_FAST_MUTANTS(OSVS_FAST_MUTANT)};

#undef OSVS_TWO_PASS_MUTANT
#undef OSVS_FAST_MUTANT

}  // namespace

const std::vector<const KernelMutant*>& kernel_mutants() {
  static const std::vector<const KernelMutant*> all = [] {
    std::vector<const KernelMutant*> v;
    for (const KernelMutant& m : kKernelMutants) {
      v.push_back(&m);
      register_softmax_mutant(&m.entry);
    }
    return v;
  }();
  return all;
}

void register_kernel_mutants() {
  kernel_mutants();
}

}  // namespace osvs::mutation
