#include "osvs/mutation/law_run.h"

#include <rapidcheck.h>

#include <exception>

#include "osvs/properties/registry.h"

namespace osvs::mutation {

LawOutcome run_law(const LawSpec& law, Executor& executor, const LawBudget& budget) {
  const PropertyInfo* p = find_property(law.property);
  if (!p) throw std::invalid_argument("no registered property named \"" + law.property + "\"");
  LawOutcome out;
  out.property = law.property;
  int evaluations = 0;
  int first_failure = 0;  // the evaluation that failed first; later ones are shrink steps
  const auto property = [&] {
    const Case c = *law.cases;
    law.classify(c);
    ++evaluations;
    Verdict v;
    try {
      v = p->check(c, executor);
    } catch (const std::exception& e) {
      v = Verdict::fail(std::string("the property threw: ") + e.what());
    }
    if (!v.holds) {
      if (first_failure == 0) first_failure = evaluations;
      out.shrunk = c;  // RapidCheck's last failing case is its smallest
      out.verdict = v;
      RC_FAIL(v.explanation);
    }
  };
  rc::detail::TestParams params;
  params.seed = budget.seed;
  params.maxSuccess = budget.max_cases;
  params.maxSize = budget.max_size;
  rc::detail::TestMetadata metadata;
  metadata.id = metadata.description = law.property;
  const rc::detail::TestResult result = rc::detail::checkTestable(property, metadata, params);
  out.failed = first_failure > 0;
  out.cases_run = out.failed ? first_failure : evaluations;
  out.shrink_steps = out.failed ? evaluations - first_failure : 0;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (result.match(gave_up)) out.error = "RapidCheck gave up: " + gave_up.description;
  if (result.match(error)) out.error = "RapidCheck error: " + error.description;
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
