// The names of each kind's laws, in the order its laws' table runs them: what a declaration's
// skip() and known_defect() may name. The registry (which links no law) checks every name a
// declaration gives against these lists (an unknown one is a registration error that lists
// them), and each laws' table (row_laws(), merge_laws()) checks at its first use that it defines
// exactly these laws (laws_named), so the two cannot drift.
#pragma once

#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace osvs {

inline constexpr std::string_view kRowLawNames[] = {"accuracy",         "sum_to_one", "determinism",
                                                    "batch_invariance", "strided",    "permutation",
                                                    "shift_invariance", "large_batch"};

inline constexpr std::string_view kMergeLawNames[] = {
    "commutativity", "identity",        "special_values", "accuracy",
    "associativity", "tree_invariance", "large_batch"};

inline constexpr std::string_view kAttentionLawNames[] = {
    "accuracy",        "empty_rows",       "poison",      "gqa",
    "determinism",     "batch_invariance", "page_layout", "split_invariance",
    "chunked_prefill", "prefill_decode",   "cascade"};

inline constexpr std::string_view kReductionLawNames[] = {
    "commutativity", "identity", "special_values", "accuracy", "associativity", "cpu_model"};

inline constexpr std::string_view kRowwiseLawNames[] = {
    "accuracy", "empty_rows",  "special_values",   "determinism",     "batch_invariance",
    "strided",  "permutation", "shift_invariance", "scale_invariance"};

inline constexpr std::string_view kCombineLawNames[] = {"identity_right",  "identity_left",
                                                        "finite_identity", "commutativity",
                                                        "warp_reduce",     "tree_invariance"};

/// `laws` when their names are `names` in that order; std::logic_error naming `table` otherwise.
template <class Law, std::size_t N>
std::vector<Law> laws_named(std::vector<Law> laws, const std::string_view (&names)[N],
                            const char* table) {
  bool same = laws.size() == N;
  for (std::size_t i = 0; same && i < N; ++i) same = laws[i].name == names[i];
  if (!same)
    throw std::logic_error(std::string(table) + " and its names in law_names.h name other laws");
  return laws;
}

}  // namespace osvs
