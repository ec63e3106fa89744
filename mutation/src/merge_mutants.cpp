// The merge mutants as catalogue entries: each policy's CPU model (merge_states_model_with) and,
// in builds with CUDA, its device launcher (src/cuda/merge_mutants.cu).
#include "osvs/mutation/merge_mutants.h"

#include "merge_mutant_launchers.h"
#include "osvs/kernels/attention/merge_model.h"
#include "osvs/kernels/find_by_name.h"
#include "osvs/mutation/merge_mutant_policies.h"

namespace osvs::mutation {
namespace {

template <class Policy>
MergeMutant mutant(const char* name, const char* bug) {
#if defined(OSVS_WITH_CUDA)
  constexpr auto launch = &launch_merge_mutant<Policy>;
#else
  constexpr decltype(MergeMutant::launch) launch = nullptr;
#endif
  return {name, bug, &merge_states_model_with<Policy>, launch};
}

}  // namespace

const std::vector<MergeMutant>& merge_mutants() {
#define OSVS_MERGE_MUTANT(Policy, name, bug) mutant<Policy>(#name, bug),
  static const std::vector<MergeMutant> all{OSVS_MERGE_MUTANTS(OSVS_MERGE_MUTANT)};
#undef OSVS_MERGE_MUTANT
  return all;
}

const MergeMutant* find_merge_mutant(std::string_view name) {
  return find_named(merge_mutants(), name);
}

}  // namespace osvs::mutation
