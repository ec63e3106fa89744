// Deliberately broken merges of attention partials: the mutants the merge laws must kill
// (api/tests/merge_mutants_test.cpp). Each is one change away from the real merge
// (merge_states.h, MergeMutation::None) and runs in the CPU model (merge_model.h) and in the
// merge-states kernel compiled with it (cuda::launch_merge_states_mutant); the change is written
// where the real line is, under a compile-time condition on the mutation, so a mutant is the model
// or the kernel with that one line changed and nothing else.
#pragma once

#include "osvs/kernels/enum_names.h"

namespace osvs {

enum class MergeMutation {
  None,             ///< the real merge
  OverwriteLse,     ///< lse written before o's weight is taken: e = b^(small - merged lse)
  NoRescale,        ///< o = (small.o + big.o) / d: the smaller partial's o is not rescaled by e
  BaseConfusion,    ///< exp and log in base e whatever the declared base
  EmptyGivesNan,    ///< the -inf guards removed: an empty partial's o and -inf - -inf reach o
  LseNotUpdated,    ///< lse = big.lse: log_b(1 + e) never added
  WrongNormaliser,  ///< o = small.o * e + big.o: never divided by the weights' sum d = 1 + e
  SmallDropped,     ///< the smaller partial is dropped as if empty: a split lost
  TailSkipped,      ///< components in chunks of 4: the last head_dim % 4 are never written (0)
  PositionalOrder,  ///< the first operand is always "big": roles by position, not by lse
  NanNotCanonical,  ///< the NaN / +inf guard removed: a NaN lse leaves its payload, +inf passes
};

inline constexpr MergeMutation kAllMergeMutations[] = {
    MergeMutation::OverwriteLse,   MergeMutation::NoRescale,     MergeMutation::BaseConfusion,
    MergeMutation::EmptyGivesNan,  MergeMutation::LseNotUpdated, MergeMutation::WrongNormaliser,
    MergeMutation::SmallDropped,   MergeMutation::TailSkipped,   MergeMutation::PositionalOrder,
    MergeMutation::NanNotCanonical};

inline constexpr EnumName<MergeMutation> kMergeMutationNames[] = {
    {MergeMutation::None, "none"},
    {MergeMutation::OverwriteLse, "overwrite_lse"},
    {MergeMutation::NoRescale, "no_rescale"},
    {MergeMutation::BaseConfusion, "base_confusion"},
    {MergeMutation::EmptyGivesNan, "empty_gives_nan"},
    {MergeMutation::LseNotUpdated, "lse_not_updated"},
    {MergeMutation::WrongNormaliser, "wrong_normaliser"},
    {MergeMutation::SmallDropped, "small_dropped"},
    {MergeMutation::TailSkipped, "tail_skipped"},
    {MergeMutation::PositionalOrder, "positional_order"},
    {MergeMutation::NanNotCanonical, "nan_not_canonical"}};

/// What each mutant breaks, one sentence (the enumerators' comments, for reports).
inline constexpr EnumName<MergeMutation> kMergeMutationBugs[] = {
    {MergeMutation::None, "none: the real merge"},
    {MergeMutation::OverwriteLse,
     "the merged lse is written before o is rescaled: o's weight is b^(small - merged lse)"},
    {MergeMutation::NoRescale, "the smaller partial's o is not rescaled by e = b^(small - big)"},
    {MergeMutation::BaseConfusion, "exp and log in base e whatever the declared lse base"},
    {MergeMutation::EmptyGivesNan,
     "the -inf guards removed: an empty partial's o (never to be read) and -inf - -inf reach o"},
    {MergeMutation::LseNotUpdated, "lse = the larger lse: log_b(1 + e) is never added"},
    {MergeMutation::WrongNormaliser, "o is never divided by the sum of the weights, 1 + e"},
    {MergeMutation::SmallDropped, "the smaller partial is dropped as if it were empty"},
    {MergeMutation::TailSkipped,
     "o is merged in chunks of 4 components: the last head_dim % 4 are never written"},
    {MergeMutation::PositionalOrder,
     "the first operand is always the big one: roles by position, not by the larger lse"},
    {MergeMutation::NanNotCanonical,
     "the NaN / +inf lse guard removed: NaN payloads pass through and +inf merges as a value"}};

inline const char* to_string(MergeMutation m) {
  return name_in(kMergeMutationNames, m);
}

inline const char* bug_of(MergeMutation m) {
  return name_in(kMergeMutationBugs, m);
}

}  // namespace osvs
