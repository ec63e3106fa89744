// The driver reports a failing law at once and bounds its shrinking: the first counterexample is
// printed before any shrink step, and shrinking stops at its step and time limits and says so. A
// law whose cases are mostly vacuous fails; a law that cannot run on the executor is skipped.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "perturbing_executor.h"
#include "property_driver.h"
#include "test_executor.h"

namespace osvs::test {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto npos = std::string::npos;

/// The suite's accuracy law on the hardened 2-pass kernel.
LawSpec accuracy_law() {
  return find_law(softmax_laws(Case{}), "accuracy");
}

RunLimits limits(ShrinkLimits shrink) {
  RunLimits l;
  l.params.seed = 20240605;  // fixed: every run below is reproducible
  l.params.maxSuccess = 100;
  l.params.maxSize = 100;
  l.shrink = shrink;
  return l;
}

/// Rows at least this long are faulty: a failing case is then long, and shrinking takes many steps
/// (dropping columns down to this length, then simplifying each element).
constexpr std::int64_t kFaultyLength = 64;

/// Every output of a long row 0.1 % too large: thousands of ulps, so accuracy fails.
void scale_outputs(const SoftmaxBatch& b, SoftmaxResult& r) {
  if (b.cols < kFaultyLength) return;
  for (float& y : r.y) y *= 1.001f;
}

Faults wrong_outputs() {
  return {nullptr, nullptr,
          [](int, const SoftmaxBatch& b, SoftmaxResult& r) { scale_outputs(b, r); }};
}

/// Runs expect_law and collects in `reported` what it reported to GoogleTest (failures and skips),
/// instead of failing or skipping this test.
void expect_law_reporting_to(const LawSpec& law, ::testing::TestPartResultArray* reported) {
  ::testing::ScopedFakeTestPartResultReporter reporter(
      ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, reported);
  expect_law(law, Case{});
}

TEST(Driver, PrintsTheFirstCounterexampleBeforeShrinking) {
  std::ostringstream out;
  int calls_after_report = 0;
  PerturbingExecutor bad({nullptr, nullptr, [&](int, const SoftmaxBatch& b, SoftmaxResult& r) {
                            scale_outputs(b, r);
                            calls_after_report += out.str().find("first counterexample") != npos;
                          }});
  const LawRun run = drive_law(accuracy_law(), bad, limits({50, 60}), out);
  ASSERT_TRUE(run.failed());
  const std::string text = out.str();
  const auto first = text.find("first counterexample");
  ASSERT_NE(first, npos) << text;
  EXPECT_NE(text.find(run.first_failure->verdict.explanation, first), npos) << text;
  EXPECT_NE(text.find("case: kernel two_pass", first), npos) << text;
  EXPECT_LT(first, text.find("shrinking took")) << text;
  // Each shrink step ran the executor at least once, every time with the report already out.
  EXPECT_GT(run.shrink_steps, 0);
  EXPECT_GE(calls_after_report, run.shrink_steps);
}

TEST(Driver, ShrinkingStopsAtItsStepLimitAndSaysSo) {
  PerturbingExecutor bad(wrong_outputs());
  const LawRun unbounded = run_law(accuracy_law(), bad, limits({1 << 30, 600}));
  ASSERT_TRUE(unbounded.failed());
  ASSERT_TRUE(unbounded.shrink_stopped.empty()) << unbounded.shrink_stopped;
  const int limit = unbounded.shrink_steps / 2;
  ASSERT_GT(limit, 0);
  PerturbingExecutor bad_again(wrong_outputs());
  const LawRun bounded = run_law(accuracy_law(), bad_again, limits({limit, 600}));
  EXPECT_EQ(bounded.shrink_steps, limit);
  EXPECT_NE(bounded.shrink_stopped.find(std::to_string(limit) + " shrink steps"), npos)
      << bounded.shrink_stopped;
  ASSERT_TRUE(bounded.smallest_failure.has_value());
  EXPECT_TRUE(bounded.smallest_failure->verdict.fails());
  EXPECT_TRUE(
      bounded.rapidcheck_report.empty());  // RapidCheck did not finish: no report of its own
}

TEST(Driver, ShrinkingStopsAtItsTimeLimitAndSaysSo) {
  constexpr double kLimitSeconds = 0.3;
  constexpr auto kSlowCall = std::chrono::milliseconds(20);  // shrinking would need far longer
  std::vector<Clock::time_point> calls;
  PerturbingExecutor slow({nullptr, nullptr, [&](int, const SoftmaxBatch& b, SoftmaxResult& r) {
                             calls.push_back(Clock::now());
                             std::this_thread::sleep_for(kSlowCall);
                             scale_outputs(b, r);
                           }});
  Clock::time_point reported;
  const LawRun run = run_law(accuracy_law(), slow, limits({1 << 30, kLimitSeconds}),
                             [&](const LawRun&) { reported = Clock::now(); });
  ASSERT_TRUE(run.failed());
  EXPECT_NE(run.shrink_stopped.find("s of shrinking"), npos) << run.shrink_stopped;
  EXPECT_GE(run.shrink_seconds, kLimitSeconds);
  // The limit is checked after every shrink step: no step started once it had passed.
  ASSERT_FALSE(calls.empty());
  EXPECT_LT(std::chrono::duration<double>(calls.back() - reported).count(), kLimitSeconds);
}

TEST(Driver, VacuousCasesAreCountedAndShownInTheDistribution) {
  LawSpec law = accuracy_law();
  law.cases = rc::gen::map(law.cases, [](Case c) {
    for (auto& row : c.rows) row.clear();  // no element: nothing to judge
    return c;
  });
  auto model = make_cpu_executor();
  const LawRun run = run_law(law, *model, limits({10, 10}));
  EXPECT_FALSE(run.failed());
  EXPECT_EQ(run.vacuous, run.cases);
  EXPECT_EQ(run.judged(), 0);
  EXPECT_TRUE(run.mostly_vacuous());
  EXPECT_NE(run.rapidcheck_report.find("vacuous: outside the law's domain"), npos)
      << run.rapidcheck_report;
  EXPECT_NE(run.first_vacuous_reason.find("no finite row"), npos) << run.first_vacuous_reason;
}

TEST(Driver, MostlyVacuousMeansMoreThanHalf) {
  LawRun run;
  run.cases = 10;
  run.vacuous = 5;
  EXPECT_FALSE(run.mostly_vacuous());
  run.vacuous = 6;
  EXPECT_TRUE(run.mostly_vacuous());
}

TEST(Driver, ALawWhoseCasesAreMostlyVacuousFails) {
  if (!executor()) GTEST_SKIP() << unavailable_reason();
  LawSpec law = accuracy_law();
  law.cases = rc::gen::map(law.cases, [](Case c) {
    for (auto& row : c.rows) row.clear();
    return c;
  });
  ::testing::TestPartResultArray reported;
  expect_law_reporting_to(law, &reported);
  ASSERT_EQ(reported.size(), 1);
  EXPECT_TRUE(reported.GetTestPartResult(0).failed());
  EXPECT_NE(std::string(reported.GetTestPartResult(0).message()).find("hardly checked"), npos)
      << reported.GetTestPartResult(0).message();
}

TEST(Driver, ALawThatCannotRunOnTheExecutorIsSkippedNotPassed) {
  auto model = make_cpu_executor();
  const LawSpec law = find_law(softmax_laws(Case{}), "executor_agreement");
  const LawRun run = run_law(law, *model, limits({10, 10}));
  EXPECT_NE(run.not_run.find("second party"), npos) << run.not_run;
  EXPECT_EQ(run.cases, 1);  // stopped at its first case
  EXPECT_FALSE(run.failed());
  if (!executor() || executor()->is_gpu()) return;  // the rest is about expect_law on the model
  ::testing::TestPartResultArray reported;
  expect_law_reporting_to(law, &reported);
  ASSERT_EQ(reported.size(), 1);
  EXPECT_TRUE(reported.GetTestPartResult(0).skipped());
  EXPECT_NE(std::string(reported.GetTestPartResult(0).message()).find("not run"), npos);
}

}  // namespace
}  // namespace osvs::test
