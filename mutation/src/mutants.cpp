#include "osvs/mutation/mutants.h"

#include <algorithm>

#include "osvs/kernels/combine_operator.h"

namespace osvs::mutation {

std::vector<Mutant> all_mutants() {
  std::vector<Mutant> out;
  // Every registered combine mutant (osvs's own and any a user registered), with its declared bug.
  for (CombineKind k : registered_mutants()) {
    Case c;
    c.kernel = KernelKind::TwoPass;
    c.combine = k;
    out.push_back({to_string(k), k.op().defect ? k.op().defect : "(no defect stated)", c, true});
  }
  for (const KernelMutant* m : kernel_mutants()) {
    Case c;
    c.kernel = m->entry.original;
    c.combine = CombineKind::Hardened;  // each kernel mutant stands in for a hardened kernel
    c.mutant = m->entry.name;
    out.push_back({m->entry.name, m->entry.defect, c, false, m});
  }
  // The large-index mutant last: an illegal address would poison the device for the others.
  std::stable_partition(out.begin(), out.end(),
                        [](const Mutant& m) { return !needs_large_index_check(m); });
  return out;
}

std::optional<std::string> skip_reason(const Mutant& mutant, const Executor& executor) {
  if (executor.is_gpu() || mutant.kernel == nullptr || mutant.kernel->entry.kernel.model)
    return std::nullopt;
  return std::string("device only: the CPU model cannot replay ") + mutant.name + " (" +
         mutant.kernel->entry.device_only + ")";
}

bool needs_large_index_check(const Mutant& mutant) {
  return mutant.kernel != nullptr && mutant.kernel->large_index;
}

}  // namespace osvs::mutation
