// Running one law of the suite with RapidCheck under a case budget (osvs/properties/law_runner.h),
// counting what it took: how many judged cases until the first failure, and the shrunk
// counterexample. A vacuous case is not counted as run, and a law that cannot run on the executor
// (e.g. agreement with the CPU model, on the CPU model) cannot kill: it is reported as not run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "osvs/kernels/executor.h"
#include "osvs/properties/suite.h"
#include "osvs/properties/verdict.h"

namespace osvs::mutation {

struct LawBudget {
  int max_cases = 100;            ///< generated cases before the law counts as holding
  int max_size = 100;             ///< RapidCheck's size limit
  std::uint64_t seed = 20240605;  ///< fixed by default: a run is reproducible
};

struct LawOutcome {
  std::string property;
  std::string not_run;  ///< non-empty: the law cannot run on this executor (why); it did not count
  bool failed = false;
  int cases_run = 0;      ///< judged cases up to the verdict (not vacuous ones, not shrink steps)
  int cases_vacuous = 0;  ///< generated cases outside the law's domain: not counted as run
  int shrink_steps = 0;   ///< property evaluations spent shrinking
  std::string shrink_stopped;  ///< why shrinking stopped at its limit ("" when it completed)
  std::optional<Case> shrunk;  ///< the smallest failing case (failed only)
  Verdict verdict;             ///< its verdict (failed only)
  std::string error;           ///< RapidCheck gave up or reported an error ("" otherwise)
};

/// Runs `law` on `executor`: generated cases until one fails or `budget.max_cases` pass, then
/// RapidCheck's shrinking within osvs::ShrinkLimits' defaults. A property that throws fails its
/// case with the exception's message.
LawOutcome run_law(const LawSpec& law, Executor& executor, const LawBudget& budget);

/// The size of a counterexample: its states for a combine-level case, else the elements of its
/// first row.
std::int64_t counterexample_size(const Case& c);

/// "states" or "elements", matching counterexample_size.
const char* counterexample_unit(const Case& c);

}  // namespace osvs::mutation
