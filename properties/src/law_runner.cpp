#include "osvs/properties/law_runner.h"

#include <chrono>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "osvs/kernels/hex.h"
#include "osvs/properties/check_case.h"
#include "osvs/properties/registry.h"

namespace rc::detail {
// RapidCheck's process-wide listener (verbose progress, the reproduce strings printed at exit);
// defined in librapidcheck, not declared in its installed headers.
TestListener& globalTestListener();
}  // namespace rc::detail

namespace osvs {
namespace {

using Clock = std::chrono::steady_clock;

/// Thrown by the listener to leave RapidCheck: the law cannot run on this executor.
struct LawNotRun {};

/// Thrown by the listener to leave RapidCheck's shrinking loop: a limit is reached.
struct ShrinkLimitReached {
  std::string why;
};

/// Forwards every event to RapidCheck's own listener, and stops the run where the law cannot
/// run, or where shrinking reached a limit.
class BoundedListener final : public rc::detail::TestListener {
 public:
  BoundedListener(LawRun& run, const RunLimits& limits, const Clock::time_point& shrink_start)
      : run_(run), limits_(limits), shrink_start_(shrink_start) {}

  void onTestCaseFinished(const rc::detail::CaseDescription& d) override {
    if (limits_.report_to_rapidcheck) rc::detail::globalTestListener().onTestCaseFinished(d);
    if (!run_.not_run.empty()) throw LawNotRun{};
  }

  void onShrinkTried(const rc::detail::CaseDescription& d, bool accepted) override {
    if (limits_.report_to_rapidcheck) rc::detail::globalTestListener().onShrinkTried(d, accepted);
    ++run_.shrink_steps;
    run_.shrinks_accepted += accepted;
    run_.shrink_seconds = std::chrono::duration<double>(Clock::now() - shrink_start_).count();
    if (run_.shrink_steps >= limits_.shrink.max_steps)
      throw ShrinkLimitReached{"the limit of " + std::to_string(limits_.shrink.max_steps) +
                               " shrink steps was reached"};
    if (run_.shrink_seconds >= limits_.shrink.max_seconds)
      throw ShrinkLimitReached{"the limit of " + digits9(limits_.shrink.max_seconds) +
                               " s of shrinking was reached"};
  }

  void onTestFinished(const rc::detail::TestMetadata& m, const rc::detail::TestResult& r) override {
    if (limits_.report_to_rapidcheck) rc::detail::globalTestListener().onTestFinished(m, r);
  }

 private:
  LawRun& run_;
  const RunLimits& limits_;
  const Clock::time_point& shrink_start_;
};

Verdict evaluate(const PropertyInfo& p, const Case& c, Executor& executor) {
  try {
    return check_case(p, c, executor);
  } catch (const std::exception& e) {
    return Verdict::fail(std::string("the property threw: ") + e.what());
  }
}

}  // namespace

RunLimits limits_from_rapidcheck_configuration(ShrinkLimits shrink) {
  return {rc::detail::configuration().testParams, shrink};
}

LawRun run_law(const LawSpec& law, Executor& executor, const RunLimits& limits,
               const FirstFailureHook& on_first_failure) {
  const PropertyInfo* p = find_property(law.property);
  if (!p) throw std::invalid_argument("no registered property named \"" + law.property + "\"");
  LawRun run;
  run.property = law.property;
  Clock::time_point shrink_start;
  const auto property = [&] {
    const Case c = *law.cases;
    law.classify(c);
    const Verdict v = evaluate(*p, c, executor);
    const bool shrinking = run.failed();
    if (!shrinking) {
      ++run.cases;
      if (v.status == VerdictStatus::NotRun) {
        run.not_run = v.explanation;  // the listener stops the run after this case
        return;
      }
      const bool vacuous = v.status == VerdictStatus::Vacuous;
      if (vacuous && run.vacuous++ == 0) run.first_vacuous_reason = v.explanation;
      RC_CLASSIFY(vacuous, "vacuous: outside the law's domain");
    }
    // tree_invariance reports whether the two trees' roots differ in their bits: a statistic of
    // the reduction order's visible effect, shown in RapidCheck's distribution, never asserted.
    for (const Evidence& e : v.evidence)
      if (e.what == "roots differ bitwise")
        RC_CLASSIFY(e.observed != 0, "the two trees' roots differ in bits");
    if (!v.fails()) return;
    if (!shrinking) {
      run.first_failure = FailingCase{c, v};
      if (on_first_failure) on_first_failure(run);
      shrink_start = Clock::now();  // after the report: printing is not shrinking
    }
    run.smallest_failure = FailingCase{c, v};  // RapidCheck's last failing case is its smallest
    RC_FAIL(v.explanation);
  };
  rc::detail::TestMetadata metadata;
  metadata.id = law.property;
  metadata.description = p->name + ": " + p->law;
  BoundedListener listener(run, limits, shrink_start);
  // Not reporting to RapidCheck: no reproduce map either, whose lookup would load RapidCheck's
  // global configuration and print its "Using configuration: seed=..." line for a seed unused.
  static const std::unordered_map<std::string, rc::detail::Reproduce> no_reproduce;
  try {
    const rc::detail::TestResult result =
        limits.report_to_rapidcheck
            ? rc::detail::checkTestable(property, metadata, limits.params, listener)
            : rc::detail::checkTestable(property, metadata, limits.params, listener, no_reproduce);
    std::ostringstream report;
    rc::detail::printResultMessage(result, report);
    run.rapidcheck_report = report.str();
    rc::detail::GaveUpResult gave_up;
    rc::detail::Error error;
    if (result.match(gave_up)) run.rapidcheck_error = "RapidCheck gave up: " + gave_up.description;
    if (result.match(error)) run.rapidcheck_error = "RapidCheck error: " + error.description;
  } catch (const LawNotRun&) {
    // run.not_run holds the reason
  } catch (const ShrinkLimitReached& stop) {
    run.shrink_stopped = stop.why;
  }
  return run;
}

}  // namespace osvs
