#include "osvs/mutation/mutants.h"

#include <algorithm>

#include "osvs/kernels/combine_operator.h"

namespace osvs::mutation {
namespace {

/// The bug of each kernel mutation, as cases.h documents it.
constexpr EnumName<KernelMutation> kKernelBugs[] = {
    {KernelMutation::ShuffleFromOffset8,
     "shuffle tree starts at offset 8: lanes 16..31 never reach lane 0"},
    {KernelMutation::ShuffleUp, "__shfl_up_sync instead of __shfl_down_sync"},
    {KernelMutation::NoSyncBeforeSharedStage,
     "__syncthreads() missing before warp 0 reads shared memory"},
    {KernelMutation::NoSyncBeforeBroadcast,
     "__syncthreads() missing before every thread reads the row's state"},
    {KernelMutation::NoLaneGuard,
     "`lane < NUM_WARPS` guard removed: warp 0 reads unwritten shared memory"},
    {KernelMutation::PerWarpDivisor, "pass 2 divides by its warp's d instead of the row's"},
    {KernelMutation::SkipLastElement, "stride loop stops at N - 1"},
    {KernelMutation::Int32Index, "`row * N` in 32-bit int (wrong for M * N >= 2^31)"},
    {KernelMutation::FastLostChunk,
     "fast kernel: the cross-block merge of a split row stops one chunk short"},
    {KernelMutation::FastSkippedTail,
     "fast kernel: only whole float4s are loaded, the row's last n % 4 elements never are"},
    {KernelMutation::FastPrefixMerge,
     "fast kernel: block c merges the chunk states 0 .. c only (a scan's order, not a "
     "reduction's)"},
};

}  // namespace

std::vector<Mutant> all_mutants() {
  std::vector<Mutant> out;
  // Every registered combine mutant (osvs's own and any a user registered), with its declared bug.
  for (CombineKind k : registered_mutants()) {
    Case c;
    c.kernel = KernelKind::TwoPass;
    c.combine = k;
    out.push_back({to_string(k), k.op().defect ? k.op().defect : "(no defect stated)", c, true});
  }
  const auto add_kernel_mutant = [&](KernelMutation m) {
    Case c;
    c.kernel = mutated_kernel(m);
    c.combine = CombineKind::Hardened;  // each mutation applies to a hardened kernel
    c.mutation = m;
    out.push_back({to_string(m), name_in(kKernelBugs, m, "not a mutation"), c, false});
  };
  for (KernelMutation m : kAllKernelMutations) add_kernel_mutant(m);
  for (KernelMutation m : kFastKernelMutations) add_kernel_mutant(m);
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
