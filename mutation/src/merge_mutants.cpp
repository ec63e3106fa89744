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
  static const std::vector<MergeMutant> all{
      mutant<OverwriteLse>(
          "overwrite_lse",
          "the merged lse is written before o is rescaled: o's weight is b^(small - merged lse)"),
      mutant<NoRescale>("no_rescale",
                        "the smaller partial's o is not rescaled by e = b^(small - big)"),
      mutant<BaseConfusion>("base_confusion",
                            "exp and log in base e whatever the declared lse base"),
      mutant<EmptyGivesNan>("empty_gives_nan",
                            "the -inf guards removed: an empty partial's o (never to be read) and "
                            "-inf - -inf reach o"),
      mutant<LseNotUpdated>("lse_not_updated", "lse = the larger lse: log_b(1 + e) is never added"),
      mutant<WrongNormaliser>("wrong_normaliser",
                              "o is never divided by the sum of the weights, 1 + e"),
      mutant<SmallDropped>("small_dropped", "the smaller partial is dropped as if it were empty"),
      mutant<TailSkipped>(
          "tail_skipped",
          "o is merged in chunks of 4 components: the last head_dim % 4 are never written"),
      mutant<PositionalOrder>(
          "positional_order",
          "the first operand is always the big one: roles by position, not by the larger lse"),
      mutant<NanNotCanonical>("nan_not_canonical",
                              "the NaN / +inf lse guard removed: NaN payloads pass through and "
                              "+inf merges as a value")};
  return all;
}

const MergeMutant* find_merge_mutant(std::string_view name) {
  return find_named(merge_mutants(), name);
}

}  // namespace osvs::mutation
