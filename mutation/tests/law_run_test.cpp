// Running one law with a budget: the counts, the shrunk case, a kill and a skip.
#include <gtest/gtest.h>

#include "osvs/mutation/law_run.h"
#include "osvs/mutation/mutation_run.h"
#include "osvs/properties/registry.h"

namespace osvs::mutation {
namespace {

TEST(RunLaw, AHoldingLawRunsExactlyTheBudget) {
  auto cpu = make_cpu_executor();
  const LawBudget budget{25, 100, 7};
  // The hardened operator claims the true identity; its state generator never discards, so
  // RapidCheck evaluates the property once per case: 25 cases.
  const LawOutcome o =
      run_law(find_law(combine_laws(CombineKind::Hardened), "identity_right"), *cpu, budget);
  EXPECT_FALSE(o.failed) << o.verdict.explanation;
  EXPECT_EQ(o.cases_run, 25);
  EXPECT_EQ(o.shrink_steps, 0);
  EXPECT_FALSE(o.shrunk.has_value());
  EXPECT_TRUE(o.error.empty()) << o.error;
}

TEST(RunLaw, AFailingLawShrinksToOneState) {
  auto cpu = make_cpu_executor();
  // The seed operator gives NaN for (-inf, 0) (+) (-inf, 0) (-inf - -inf = NaN), and the
  // identity is one of the generator's states, so one state is the smallest counterexample.
  const LawOutcome o =
      run_law(find_law(combine_laws(CombineKind::Seed), "identity_right"), *cpu, LawBudget{});
  ASSERT_TRUE(o.failed);
  EXPECT_GE(o.cases_run, 1);
  EXPECT_LE(o.cases_run, 100);
  ASSERT_TRUE(o.shrunk.has_value());
  EXPECT_EQ(counterexample_size(*o.shrunk), 1);
  EXPECT_STREQ(counterexample_unit(*o.shrunk), "states");
  EXPECT_TRUE(o.verdict.fails());
}

TEST(RunLaw, ALawThatCannotRunOnTheExecutorCannotKill) {
  auto cpu = make_cpu_executor();
  // Agreement with the CPU model, on the CPU model: the model against itself, never a verdict.
  Case configuration;
  configuration.combine = CombineKind::MutantNoRescale;
  const LawOutcome o =
      run_law(find_law(softmax_laws(configuration), "executor_agreement"), *cpu, LawBudget{});
  EXPECT_FALSE(o.not_run.empty());
  EXPECT_FALSE(o.failed);
  EXPECT_EQ(o.cases_run, 0);
}

TEST(RunLaw, VacuousCasesAreNotCountedAsRun) {
  auto cpu = make_cpu_executor();
  LawSpec law = find_law(softmax_laws(Case{}), "accuracy");
  law.cases = rc::gen::map(law.cases, [](Case c) {
    for (auto& row : c.rows) row.clear();  // an empty row has no softmax to judge
    return c;
  });
  const LawBudget budget{20, 100, 7};
  const LawOutcome o = run_law(law, *cpu, budget);
  EXPECT_FALSE(o.failed);
  EXPECT_EQ(o.cases_run, 0);
  EXPECT_EQ(o.cases_vacuous, budget.max_cases);
}

TEST(RunMutant, NoRescaleIsKilledByAClaimedLaw) {
  auto cpu = make_cpu_executor();
  Mutant m;
  for (const Mutant& x : all_mutants())
    if (x.configuration.combine == CombineKind::MutantNoRescale) m = x;
  RunSettings settings;  // no regression root: nothing is written
  const MutantResult r = run_mutant(m, *cpu, settings);
  ASSERT_EQ(r.status, MutantStatus::Killed) << r.reason;
  const PropertyInfo* killer = find_property(r.killed_by);
  ASSERT_NE(killer, nullptr);
  // A kill counts only by a law the original (seed) operator claims.
  EXPECT_TRUE(killer->claimed(m.configuration));
  EXPECT_GE(r.cases_to_kill, 1);
  EXPECT_GE(r.cases_total, r.cases_to_kill);
  EXPECT_GE(r.shrunk_size, 0);
  EXPECT_TRUE(r.regression_file.empty());
}

TEST(RunMutant, DeviceOnlyMutantIsSkippedOnTheCpu) {
  auto cpu = make_cpu_executor();
  for (const Mutant& m : all_mutants()) {
    if (m.kernel == nullptr || m.kernel->entry.kernel.model != nullptr) continue;
    const MutantResult r = run_mutant(m, *cpu, RunSettings{});
    EXPECT_EQ(r.status, MutantStatus::Skipped) << m.name;
    EXPECT_FALSE(r.reason.empty());
  }
}

}  // namespace
}  // namespace osvs::mutation
