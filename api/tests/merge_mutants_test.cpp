// The merge mutants (kernels/include/osvs/kernels/attention/merge_mutation.h) under the merge
// laws, each as a registered kernel would be: every mutant must be killed by some law, and its
// counterexample must shrink to at most 4 partials of head_dim at most 4. The shrunk cases are
// saved (OSVS_REGRESSION_DIR); the committed ones (reports/regressions/attention/) are replayed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <set>

#include "merge_law_run.h"
#include "osvs/api/merge_host_io.h"
#include "osvs/api/merge_regression.h"
#include "osvs/api/row_regression.h"  // row_provenance
#include "osvs/kernels/attention/merge_model.h"
#include "osvs/testing/skip_marker.h"
#include "testbed_settings.h"

namespace osvs::test {
namespace {

constexpr std::size_t kMaxShrunkPartials = 4;
constexpr int kMaxShrunkHeadDim = 4;
constexpr double kShrinkSeconds = 10;

/// The CPU model's merge with one mutation, declared as osvs's own CPU-model entry is.
MergeKernel mutant_kernel(MergeMutation m) {
  return MergeKernel(std::string("osvs.merge_mutant.") + to_string(m), Where::Host)
      .o_types({DType::F32, DType::BF16, DType::F16})
      .lse_bases({LseBase::E, LseBase::Two})
      .run([m](const MergeProblem& p) {
        store_result(p, merge_states_model(operand_a(p), operand_b(p), p.base, m));
      })
      .description(bug_of(m));
}

class MergeMutantTest : public ::testing::TestWithParam<MergeMutation> {};

TEST_P(MergeMutantTest, IsKilledWithASmallCounterexample) {
  const MergeKernel k = mutant_kernel(GetParam());
  for (const MergeLaw& law : merge_laws()) {
    const testbed::MergeLawRun run =
        testbed::run_merge_law(law, k, kShrinkSeconds, [](const Verdict&, const MergeCase&) {});
    if (!run.failed()) continue;
    const MergeCase& c = *run.smallest;
    std::cout << "[ osvs     ] " << k.name() << " (" << bug_of(GetParam()) << ") killed by "
              << law.name << ": " << testbed::summary(c) << " after " << run.shrink_steps
              << " shrinking steps: " << run.smallest_verdict.explanation.substr(0, 240) << "\n";
    EXPECT_LE(c.parts.size(), kMaxShrunkPartials) << testbed::summary(c);
    EXPECT_LE(c.parts.front().head_dim, kMaxShrunkHeadDim) << testbed::summary(c);
    MergeRegression r;
    r.kernel = k.name();
    r.law = law.name;
    r.expect_holds = false;
    r.note = std::string("mutant: ") + bug_of(GetParam());
    r.found = row_provenance("merge mutant gate, cpu model");
    r.explanation = run.smallest_verdict.explanation;
    r.input = c;
    std::cout << "[ osvs     ] saved " << write_merge_regression(r, testbed::regression_root())
              << "\n";
    return;
  }
  ADD_FAILURE() << k.name() << " survived every merge law: " << bug_of(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Every, MergeMutantTest, ::testing::ValuesIn(kAllMergeMutations),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(MergeMutants, TheCatalogueHasEightOrMoreDistinctMutants) {
  std::set<std::string> names;
  for (MergeMutation m : kAllMergeMutations) names.insert(to_string(m));
  EXPECT_GE(names.size(), 8u);
  EXPECT_EQ(names.size(), std::size(kAllMergeMutations));
  EXPECT_EQ(names.count("none"), 0u) << "the real merge is not a mutant";
}

TEST(MergeMutants, CommittedCounterexamplesStillKill) {
  int replayed = 0;
  for (MergeMutation m : kAllMergeMutations) {
    const MergeKernel k = mutant_kernel(m);
    for (const auto& [path, r] : read_merge_regressions(OSVS_ATTENTION_REGRESSIONS, k.name())) {
      EXPECT_FALSE(r.expect_holds) << path << ": a mutant's case must expect the law to fail";
      EXPECT_EQ(replay_merge_regression(k, r), "") << path;
      ++replayed;
    }
  }
  std::cout << "[ osvs     ] " << replayed << " committed mutant counterexamples replayed\n";
  EXPECT_GE(replayed, static_cast<int>(std::size(kAllMergeMutations)))
      << "every mutant should have its counterexample under " << OSVS_ATTENTION_REGRESSIONS;
}

}  // namespace
}  // namespace osvs::test

int main(int argc, char** argv) {
  if (!std::getenv("RC_PARAMS")) setenv("RC_PARAMS", "seed=20261130", 0);  // deterministic
  ::testing::InitGoogleTest(&argc, argv);
  osvs::testing::install_skip_marker();
  return RUN_ALL_TESTS();
}
