#include "merge_law_run.h"

#include <rapidcheck.h>

#include <chrono>

#include "osvs/api/merge_runner.h"
#include "osvs/properties/gen/attention.h"

namespace osvs::testbed {

using Clock = std::chrono::steady_clock;

Verdict judge_merge(const MergeLaw& law, const MergeKernel& k, const MergeCase& c) {
  try {
    return law.check(c, merge_under_test(k));
  } catch (const KernelFailure& e) {
    return Verdict::fail(e.what());
  }
}

std::string summary(const MergeCase& c) {
  const AttnStates& p = c.parts.front();
  return std::to_string(c.parts.size()) + " partials of " + std::to_string(p.rows) +
         " row(s) x head_dim " + std::to_string(p.head_dim) + ", " + to_string(p.o_type) +
         ", base " + to_string(c.base);
}

MergeLawRun run_merge_law(const MergeLaw& law, const MergeKernel& k, double shrink_seconds,
                          const std::function<void(const Verdict&, const MergeCase&)>& on_first) {
  MergeLawRun run;
  std::optional<Clock::time_point> first_failure;
  const auto cases = rc::gen::map(gen::merge_case(), [&k](MergeCase c) { return fit_to(k, c); });
  rc::check(k.name() + ": merge " + law.name, [&] {
    // Past the budget every later candidate is accepted before it is built, so shrinking ends
    // at once with the smallest failing case found so far.
    if (first_failure &&
        std::chrono::duration<double>(Clock::now() - *first_failure).count() > shrink_seconds) {
      run.budget_spent = true;
      return;
    }
    const MergeCase c = *cases;
    const Verdict v = judge_merge(law, k, c);
    if (v.status == VerdictStatus::Vacuous || v.status == VerdictStatus::NotRun) {
      if (!first_failure) {
        ++run.vacuous;
        run.first_vacuous_reason = v.explanation;
      }
      RC_TAG("vacuous");
      return;
    }
    if (!first_failure) ++run.judged;
    if (!v.fails()) return;
    if (!first_failure) {
      first_failure = Clock::now();
      on_first(v, c);
    } else {
      ++run.shrink_steps;
    }
    run.smallest = c;
    run.smallest_verdict = v;
    RC_FAIL(v.explanation);
  });
  return run;
}

}  // namespace osvs::testbed
