// The attention mutants: osvs's tiled attention kernel (api/builtin/tiled_attention_row.h) with
// one defect each, as policies of the same code, under the attention laws as a registered kernel
// would be: every mutant must be killed by some law (the law named where the mutant names one:
// the first of the table's order that kills it, and another it breaks too), and each law that
// kills it must shrink its counterexample to at most 2 sequences, 8 keys a sequence (12 for the
// one defect that needs three splits of 4), head_dim 4, 2 kv heads and 2 query heads (4 for the
// one defect that needs them). One catalogue for both executors (attention_mutant_catalogue.h):
// the host's (attention_mutants_test.cpp) and the device's (tiled_attention_device_test.cpp); the
// backward kernel's catalogue goes through the same check (attention_backward_mutants.h).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "attention_mutant_catalogue.h"
#include "law_run.h"
#include "tiled_attention.h"

namespace osvs::test {

/// A catalogue test's name (INSTANTIATE_TEST_SUITE_P): its mutant's.
inline std::string mutant_test_name(const ::testing::TestParamInfo<Mutant>& info) {
  return info.param.name;
}

/// OSVS_ATTENTION_MUTANT_SUITE(Suite, catalogue, check): the parameterized test
/// Catalogue/Suite.IsKilledAndShrunkSmall/<mutant> for each mutant of `catalogue` (a
/// std::vector<Mutant>), which calls check(mutant): the host's and the device's suites of both
/// catalogues.
#define OSVS_ATTENTION_MUTANT_SUITE(Suite, catalogue, check) \
  class Suite : public ::testing::TestWithParam<Mutant> {};  \
  TEST_P(Suite, IsKilledAndShrunkSmall) {                    \
    check(GetParam());                                       \
  }                                                          \
  INSTANTIATE_TEST_SUITE_P(Catalogue, Suite, ::testing::ValuesIn(catalogue), mutant_test_name)

inline constexpr std::size_t kMaxSequences = 2;
inline constexpr int kMaxHeadDim = 4;
inline constexpr int kMaxKvHeads = 2;
inline constexpr double kShrinkSeconds = 20;

/// Runs `law` on the mutant; when it kills it, checks the shrunk case's size and returns true.
/// `law` on `k` with the mutants' fixed seed and budget (also the device entry's law runs).
inline testbed::LawRun<AttentionCase> run_attention_law(const AttentionLaw& law,
                                                        const AttentionKernel& k) {
  rc::detail::TestParams params;
  params.seed = 20261202;
  params.maxSuccess = 200;
  return testbed::run_law<AttentionKind>(
      law, k, kShrinkSeconds, [](const Verdict&, const AttentionCase&) {}, params);
}

/// Runs every law that judges k (why_skipped empty) with the mutants' seed and budget, each
/// expected to hold; returns how many ran. (The unmutated kernels' check: a mutant's kill must be
/// the mutant's, not the laws'.)
inline int expect_every_law_holds(const AttentionKernel& k) {
  int judged = 0;
  for (const AttentionLaw& law : AttentionKind::laws()) {
    if (!why_skipped<AttentionKind>(k, law).empty()) continue;
    const auto run = run_attention_law(law, k);
    EXPECT_FALSE(run.errored()) << law.name << ": " << run.property_failure;
    EXPECT_FALSE(run.failed()) << law.name << ": "
                               << (run.failed() ? AttentionKind::summary(*run.smallest) + "\n  " +
                                                      run.smallest_verdict.explanation
                                                : std::string());
    ++judged;
  }
  return judged;
}

inline bool killed_small(const AttentionLaw& law, const AttentionKernel& k, const Mutant& m) {
  const auto run = run_attention_law(law, k);
  EXPECT_FALSE(run.errored()) << law.name << ": " << run.property_failure;
  if (!run.failed()) return false;
  const AttentionCase& c = *run.smallest;
  std::int64_t keys = 0;
  for (const AttentionSequence& s : c.seqs) keys = std::max(keys, s.k_len);
  std::cout << m.name << ": killed by " << law.name << " (" << run.shrink_steps
            << " smaller failing cases): " << AttentionKind::summary(c) << "\n  "
            << run.smallest_verdict.explanation << "\n";
  // Shrinking that stopped at its budget says so beside the size it reached.
  const std::string shrunk = law.name + ": " + AttentionKind::summary(c) +
                             (run.budget_spent ? " (shrinking stopped at its budget)" : "");
  EXPECT_LE(c.seqs.size(), kMaxSequences) << shrunk;
  EXPECT_LE(keys, m.max_keys) << shrunk;
  EXPECT_LE(c.head_dim_qk, kMaxHeadDim) << shrunk;
  EXPECT_LE(c.heads_kv, kMaxKvHeads) << shrunk;
  EXPECT_LE(c.heads_q, m.min_heads_q) << shrunk;
  return true;
}

/// How a catalogue's kernel is declared (its name, its run, where it runs): the forward's
/// builtin::declare_tiled_attention, the backward's builtin::declare_tiled_attention_backward.
using DeclareAttention = AttentionKernel (*)(const std::string&, void (*)(const AttentionProblem&),
                                             Where);

/// The mutant m, declared by `declare` as the kernel on `where` is (named `prefix` + its name), is
/// killed by some law (the one it names first), and by the other law it names, each with its
/// counterexample shrunk small.
inline void expect_killed_small(const Mutant& m, Where where,
                                DeclareAttention declare = builtin::declare_tiled_attention,
                                const char* prefix = "osvs.attention_mutant.") {
  const std::string suffix = where == Where::Device ? ".device" : "";
  const AttentionKernel k = declare(std::string(prefix) + m.name + suffix, m.run, where);
  std::string first;
  for (const AttentionLaw& law : AttentionKind::laws()) {
    if (!why_skipped<AttentionKind>(k, law).empty()) continue;
    if (killed_small(law, k, m)) {
      first = law.name;
      break;
    }
  }
  ASSERT_FALSE(first.empty()) << m.name << " survived every attention law";
  if (m.killed_by != nullptr) {
    const std::string expected = std::string(" ") + m.killed_by + " ";
    EXPECT_NE(expected.find(" " + first + " "), std::string::npos)
        << m.name << ": first killed by " << first << ", expected " << m.killed_by;
  }
  if (m.also_killed_by != nullptr) {
    const AttentionLaw* also = AttentionKind::find_law(m.also_killed_by);
    ASSERT_NE(also, nullptr) << m.also_killed_by;
    EXPECT_TRUE(killed_small(*also, k, m)) << m.name << " survived " << m.also_killed_by;
  }
}

}  // namespace osvs::test
