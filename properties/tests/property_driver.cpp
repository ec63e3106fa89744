#include "property_driver.h"

#include <algorithm>
#include <iostream>

#include "case_summary.h"
#include "regression_sink.h"
#include "test_executor.h"

namespace osvs::test {
namespace {

constexpr const char* kPrefix = "[ osvs     ] ";

/// Shrinking seconds the binary has left (kBinaryShrinkSeconds at start).
double g_shrink_seconds_left = kBinaryShrinkSeconds;

}  // namespace

void PropertyTest::SetUp() {
  if (!executor()) GTEST_SKIP() << unavailable_reason();
}

LawRun drive_law(const LawSpec& law, Executor& executor, const RunLimits& limits,
                 std::ostream& out) {
  const auto first_failure = [&](const LawRun& run) {
    const FailingCase& f = *run.first_failure;
    out << kPrefix << run.property << ": first counterexample, generated case " << run.cases
        << " (before shrinking): " << f.verdict.explanation << "\n"
        << kPrefix << "  case: " << summarize_case(f.input) << "\n"
        << kPrefix << "  shrinking for at most " << limits.shrink.max_steps << " steps and "
        << limits.shrink.max_seconds << " s" << (limits.params.disableShrinking ? " (off)" : "")
        << std::endl;  // flushed: seen at once, even if a timeout kills the run later
  };
  const LawRun run = run_law(law, executor, limits, first_failure);
  if (!run.not_run.empty()) {
    out << kPrefix << run.property << ": not run: " << run.not_run << std::endl;
    return run;
  }
  if (run.vacuous > 0)
    out << kPrefix << run.property << ": " << run.vacuous << " of " << run.cases
        << " generated cases vacuous (e.g. " << run.first_vacuous_reason << ")\n";
  if (run.failed()) {
    out << kPrefix << run.property << ": shrinking took " << run.shrink_steps << " steps ("
        << run.shrinks_accepted << " smaller counterexamples) in " << run.shrink_seconds << " s"
        << (run.shrink_stopped.empty() ? "" : "; stopped early: " + run.shrink_stopped) << "\n"
        << kPrefix << run.property
        << ": smallest counterexample: " << run.smallest_failure->verdict.explanation << "\n"
        << kPrefix << "  case: " << summarize_case(run.smallest_failure->input) << "\n";
  }
  out << std::flush;
  return run;
}

void expect_law(const LawSpec& law, const Case& configuration) {
  const PropertyInfo* p = find_property(law.property);
  ASSERT_NE(p, nullptr) << "no property named " << law.property;
  Executor& ex = *executor();
  ShrinkLimits shrink = kLawShrinkLimits;
  shrink.max_seconds = std::min(shrink.max_seconds, g_shrink_seconds_left);
  RunLimits limits = limits_from_rapidcheck_configuration(shrink);
  limits.params.disableShrinking |= shrink.max_seconds <= 0;
  std::cerr << "\n- " << p->name << ": " << p->law << std::endl;
  const LawRun run = drive_law(law, ex, limits, std::cout);
  std::cerr << run.rapidcheck_report << std::endl;
  g_shrink_seconds_left -= run.shrink_seconds;
  if (!run.not_run.empty()) GTEST_SKIP() << p->name << " not run: " << run.not_run;
  EXPECT_TRUE(run.rapidcheck_error.empty()) << run.rapidcheck_error;
  const bool claimed = p->claimed(configuration);
  if (claimed) {
    EXPECT_FALSE(run.failed()) << p->name << " is claimed by this configuration but fails: "
                               << run.smallest_failure->verdict.explanation;
  } else {
    EXPECT_TRUE(run.failed())
        << p->name << " is documented as not holding here, yet no counterexample was found";
  }
  // A failure is judged on the failing case itself; a law that held must have been checked on
  // most of its cases.
  if (!run.failed())
    EXPECT_FALSE(run.mostly_vacuous())
        << p->name << ": " << run.vacuous << " of " << run.cases
        << " generated cases were vacuous (e.g. " << run.first_vacuous_reason
        << "): the law was hardly checked";
  if (!run.failed()) return;
  const auto& [shrunk, verdict] = *run.smallest_failure;
  if (!claimed && law.max_shrunk_states > 0)
    EXPECT_LE(shrunk.states.size(), law.max_shrunk_states)
        << "the known defect did not shrink to a small counterexample";
  const std::string note = claimed ? "claimed law broken" : "known defect: law not claimed";
  const std::string path = save_regression(p->name, shrunk, verdict, !claimed, note, ex);
  if (!path.empty()) std::cout << kPrefix << "saved " << path << std::endl;
}

}  // namespace osvs::test
