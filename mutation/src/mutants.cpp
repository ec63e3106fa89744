#include "osvs/mutation/mutants.h"

#include <algorithm>

namespace osvs::mutation {
namespace {

/// The bug of a combine mutant, as combine_mutants.h documents it.
const char* combine_bug(CombineKind k) {
  switch (k) {
    case CombineKind::MutantOverwriteM:
      return "m overwritten before d is rescaled: the rescale factor of d1 becomes exp(0) = 1";
    case CombineKind::MutantNoRescale:
      return "d never rescaled: d = d1 + d2";
    case CombineKind::MutantNaiveIdentity:
      return "initial state (-inf, 0) with the unguarded formula: -inf - -inf = NaN";
    case CombineKind::MutantUnorderedTies:
      return "hardened combine without its tie rule: the first operand's m on ties (+0 vs -0)";
    case CombineKind::MutantFastExp:
      return "__expf instead of expf (error grows with |x - m|)";
    default:
      return "not a mutant";
  }
}

/// The bug of a kernel mutation, as cases.h documents it.
const char* kernel_bug(KernelMutation m) {
  switch (m) {
    case KernelMutation::ShuffleFromOffset8:
      return "shuffle tree starts at offset 8: lanes 16..31 never reach lane 0";
    case KernelMutation::ShuffleUp:
      return "__shfl_up_sync instead of __shfl_down_sync";
    case KernelMutation::NoSyncBeforeSharedStage:
      return "__syncthreads() missing before warp 0 reads shared memory";
    case KernelMutation::NoSyncBeforeBroadcast:
      return "__syncthreads() missing before every thread reads the row's state";
    case KernelMutation::NoLaneGuard:
      return "`lane < NUM_WARPS` guard removed: warp 0 reads unwritten shared memory";
    case KernelMutation::PerWarpDivisor:
      return "pass 2 divides by its warp's d instead of the row's";
    case KernelMutation::SkipLastElement:
      return "stride loop stops at N - 1";
    case KernelMutation::Int32Index:
      return "`row * N` in 32-bit int (wrong for M * N >= 2^31)";
    case KernelMutation::None:
      break;
  }
  return "not a mutation";
}

}  // namespace

std::vector<Mutant> all_mutants() {
  std::vector<Mutant> out;
  for (CombineKind k : kMutantCombines) {
    Case c;
    c.kernel = KernelKind::TwoPass;
    c.combine = k;
    out.push_back({to_string(k), combine_bug(k), c, true});
  }
  for (KernelMutation m : kAllKernelMutations) {
    Case c;
    c.kernel = KernelKind::TwoPass;
    c.combine = CombineKind::Hardened;  // each mutation applies to the hardened kernel
    c.mutation = m;
    out.push_back({to_string(m), kernel_bug(m), c, false});
  }
  // The large-index mutant last: an illegal address would poison the device for the others.
  std::stable_partition(out.begin(), out.end(),
                        [](const Mutant& m) { return !needs_large_index_check(m); });
  return out;
}

std::optional<std::string> skip_reason(const Mutant& mutant, const Executor& executor) {
  if (executor.is_gpu() || modelled_on_cpu(mutant.configuration.mutation)) return std::nullopt;
  return std::string("device only: the CPU model cannot replay ") +
         to_string(mutant.configuration.mutation) +
         (needs_large_index_check(mutant) ? " (a 2^31-element batch, 17 GiB of device memory)"
                                          : " (a race or uninitialised shared memory)");
}

bool needs_large_index_check(const Mutant& mutant) {
  return mutant.configuration.mutation == KernelMutation::Int32Index;
}

}  // namespace osvs::mutation
