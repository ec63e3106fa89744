// Running one law of the suite with RapidCheck on an executor, with the bookkeeping every driver
// needs (the property tests and mutation testing both run laws through it):
//
// - a vacuous case (outside the law's domain) is counted, tagged in RapidCheck's distribution and
//   never counted as a pass; the caller decides what a mostly vacuous law means;
// - a law that cannot be judged with the executor (Verdict::not_run) stops at its first case and
//   is reported as not run, with the reason;
// - the first failing case is handed to a callback the moment it is found, before shrinking;
// - shrinking is bounded in candidates tried and in wall-clock seconds (this RapidCheck has no
//   such limit of its own), and the run says how far it got.
#pragma once

#include <rapidcheck.h>

#include <functional>
#include <optional>
#include <string>

#include "osvs/kernels/executor.h"
#include "osvs/properties/suite.h"
#include "osvs/properties/verdict.h"

namespace osvs {

struct ShrinkLimits {
  int max_steps = 2000;     ///< shrink candidates evaluated, at most
  double max_seconds = 30;  ///< wall-clock seconds from the first failure, at most (checked after
                            ///< each candidate: one evaluation may run past it)
};

struct RunLimits {
  rc::detail::TestParams params;  ///< seed, generated cases (maxSuccess), maxSize, shrinking on/off
  ShrinkLimits shrink;
  /// Whether the run is one of RapidCheck's own: its progress and, at exit, the "to reproduce, run
  /// with RC_PARAMS=reproduce=..." line of a failure (the suite's GoogleTest programs). false: the
  /// run leaves no trace in RapidCheck's global state, for a caller that reports on its own and
  /// expects failures (the mutation gate, whose reproduce line would name its killed mutants).
  bool report_to_rapidcheck = true;
};

/// The limits RapidCheck's configuration (RC_PARAMS) gives, with `shrink`.
RunLimits limits_from_rapidcheck_configuration(ShrinkLimits shrink);

struct FailingCase {
  Case input;
  Verdict verdict;
};

struct LawRun {
  std::string property;
  /// Non-empty when the law cannot be judged with this executor: the reason. Nothing else ran.
  std::string not_run;
  int cases = 0;    ///< generated cases evaluated, up to and including the first failure
  int vacuous = 0;  ///< of them, outside the law's domain (never a pass)
  std::string first_vacuous_reason;
  std::optional<FailingCase> first_failure;     ///< as generated, before shrinking
  std::optional<FailingCase> smallest_failure;  ///< the smallest failing case shrinking reached
  int shrink_steps = 0;                         ///< shrink candidates evaluated
  int shrinks_accepted = 0;                     ///< of them, failing: each a smaller counterexample
  double shrink_seconds = 0;
  /// Why shrinking stopped before RapidCheck ran out of candidates ("" when it completed or
  /// never started).
  std::string shrink_stopped;
  /// RapidCheck's own report (distribution, counterexample, or why it gave up); empty when
  /// shrinking was stopped or the law did not run.
  std::string rapidcheck_report;
  std::string rapidcheck_error;  ///< RapidCheck gave up or reported an error ("" otherwise)

  bool failed() const { return first_failure.has_value(); }
  /// Judged cases: generated cases that were neither vacuous nor not run.
  int judged() const { return cases - vacuous; }
  /// More than half of the generated cases were vacuous: the law was hardly checked.
  bool mostly_vacuous() const { return 2 * vacuous > cases; }
};

/// Called once, with the run so far, when the first failing case is found (before shrinking).
using FirstFailureHook = std::function<void(const LawRun&)>;

/// Runs `law` on `executor`: generated cases until one fails or `limits.params.maxSuccess` pass,
/// then shrinking within `limits.shrink`. A property that throws fails its case with the
/// exception's message. Throws std::invalid_argument when the property is not registered.
LawRun run_law(const LawSpec& law, Executor& executor, const RunLimits& limits,
               const FirstFailureHook& on_first_failure = {});

}  // namespace osvs
