// The state reductions' mutants (reduction_mutants.h) under the reduction laws, each declared as
// its original is: every mutant must be killed by some law, its counterexample shrunk to at most
// the elements its bug needs (one or two; 256 for a count that wraps at 256). The shrunk cases
// are saved (OSVS_REGRESSION_DIR); the committed ones (reports/regressions/reductions/) are
// replayed and must still fail.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "law_run.h"
#include "osvs/api/regression.h"
#include "osvs/testing/source_file.h"
#include "reduction_mutants.h"
#include "testbed_settings.h"

namespace osvs::test {
namespace {

constexpr double kShrinkSeconds = 10;

struct Mutant {
  const char* name;
  const char* bug;
  std::size_t max_shrunk_elements;
  ReductionKernel (*declare)(std::string);
};

template <class R>
ReductionKernel argmax_kernel(std::string name) {
  return state_reduction<R>(std::move(name)).bitwise_commutative().exact_identity();
}

const std::vector<Mutant>& mutants() {
  static const std::vector<Mutant> all = {
      {"lse_without_empty_guard", "logsumexp of two -inf gives NaN (no guard for -inf)", 2,
       &builtin::logsumexp_kernel<LseWithoutEmptyGuard>},
      {"lse_without_shift", "log(exp(a) + exp(b)) without the shift by the maximum", 2,
       &builtin::logsumexp_kernel<LseWithoutShift>},
      {"welford_new_mean_twice", "M2 updated with the new mean on both factors", 2,
       &builtin::welford_kernel<WelfordNewMeanTwice>},
      {"welford_narrow_count", "the Chan merge with n in an 8-bit integer", 256,
       &builtin::welford_kernel<WelfordNarrowCount>},
      {"welford_variance_of_one", "the variance as M2 / (n - 1): NaN for one element", 1,
       &builtin::welford_kernel<WelfordVarianceOfOne>},
      {"argmax_larger_index", "argmax ties broken by the larger index", 2,
       &argmax_kernel<ArgmaxLargerIndex>},
      {"argmax_left_on_ties", "argmax by a >= b, the left operand kept on ties", 2,
       &argmax_kernel<ArgmaxLeftOnTies>},
  };
  return all;
}

ReductionKernel declared(const Mutant& m) {
  return m.declare(std::string("osvs.reduction_mutant.") + m.name).description(m.bug);
}

class ReductionMutantTest : public ::testing::TestWithParam<Mutant> {};

TEST_P(ReductionMutantTest, IsKilledWithASmallCounterexample) {
  const Mutant& m = GetParam();
  const ReductionKernel k = declared(m);
  // The laws whose cases shrink first; the special values law's one grid last.
  std::vector<const ReductionLaw*> laws;
  for (const ReductionLaw& law : reduction_laws())
    if (!ReductionKind::single_case(law)) laws.push_back(&law);
  for (const ReductionLaw& law : reduction_laws())
    if (ReductionKind::single_case(law)) laws.push_back(&law);
  for (const ReductionLaw* lp : laws) {
    const ReductionLaw& law = *lp;
    if (!why_skipped<ReductionKind>(k, law).empty()) continue;
    const auto run = testbed::run_law<ReductionKind>(law, k, kShrinkSeconds,
                                                     [](const Verdict&, const ReductionCase&) {});
    if (!run.failed()) continue;
    const ReductionCase& c = *run.smallest;
    std::cout << "[ osvs     ] " << k.name() << " (" << m.bug << ") killed by " << law.name << ": "
              << ReductionKind::summary(c) << " after " << run.shrink_steps
              << " shrinking steps: " << run.smallest_verdict.explanation.substr(0, 300) << "\n";
    if (!ReductionKind::single_case(law))
      EXPECT_LE(c.schedule.row.size(), m.max_shrunk_elements) << ReductionKind::summary(c);
    Regression<ReductionKind> r;
    r.kernel = k.name();
    r.law = law.name;
    r.expect_holds = false;
    r.note = std::string("mutant: ") + m.bug;
    r.found = regression_provenance("reduction mutant gate, cpu model");
    r.explanation = run.smallest_verdict.explanation;
    r.input = c;
    std::cout << "[ osvs     ] saved " << write_regression(r, testbed::regression_root()) << "\n";
    return;
  }
  ADD_FAILURE() << k.name() << " survived every reduction law: " << m.bug;
}

INSTANTIATE_TEST_SUITE_P(Every, ReductionMutantTest, ::testing::ValuesIn(mutants()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ReductionMutants, CommittedCounterexamplesStillFail) {
  const std::filesystem::path committed =
      osvs::testing::source_file("reports/regressions/reductions");
  int replayed = 0;
  for (const Mutant& m : mutants()) {
    const ReductionKernel k = declared(m);
    for (const auto& [path, r] : read_regressions<ReductionKind>(committed.string(), k.name())) {
      EXPECT_FALSE(r.expect_holds) << path << ": a mutant's case must expect the law to fail";
      EXPECT_EQ(replay_regression<ReductionKind>(k, r), "") << path;
      ++replayed;
    }
  }
  std::cout << "[ osvs     ] " << replayed << " committed reduction mutant counterexamples\n";
  EXPECT_GE(replayed, static_cast<int>(mutants().size()))
      << "every mutant should have its counterexample under " << committed;
}

}  // namespace
}  // namespace osvs::test
