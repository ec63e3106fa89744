#include "osvs/mutation/law_run.h"

#include "osvs/properties/law_runner.h"

namespace osvs::mutation {

LawOutcome run_law(const LawSpec& law, Executor& executor, const LawBudget& budget) {
  RunLimits limits;
  limits.params.seed = budget.seed;
  limits.params.maxSuccess = budget.max_cases;
  limits.params.maxSize = budget.max_size;
  limits.report_to_rapidcheck = false;  // the gate reports its kills; a failure is the goal
  const LawRun run = osvs::run_law(law, executor, limits);
  LawOutcome out;
  out.property = run.property;
  out.not_run = run.not_run;
  out.failed = run.failed();
  out.cases_vacuous = run.vacuous;
  out.cases_run = run.not_run.empty() ? run.judged() : 0;
  out.shrink_steps = run.shrink_steps;
  out.shrink_stopped = run.shrink_stopped;
  if (run.smallest_failure) {
    out.shrunk = run.smallest_failure->input;
    out.verdict = run.smallest_failure->verdict;
  }
  out.error = run.rapidcheck_error;
  return out;
}

std::int64_t counterexample_size(const Case& c) {
  if (!c.states.empty()) return static_cast<std::int64_t>(c.states.size());
  return c.rows.empty() ? 0 : static_cast<std::int64_t>(c.rows.front().size());
}

const char* counterexample_unit(const Case& c) {
  return c.states.empty() ? "elements" : "states";
}

}  // namespace osvs::mutation
