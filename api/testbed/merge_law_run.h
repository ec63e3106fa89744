// One merge law on one merge kernel under RapidCheck: generated cases fitted to the kernel's
// declarations (fixed seed unless RC_PARAMS says otherwise), the first counterexample reported
// the moment it is found, shrinking within a time budget, the smallest failing case kept. The
// testbed's merge half and the mutant gate (api/tests/merge_mutants_test.cpp) both drive it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "osvs/api/merge_laws.h"
#include "osvs/api/merge_regression.h"
#include "rc_check.h"

namespace osvs::testbed {

struct MergeLawRun {
  int judged = 0;   ///< cases on which the law held or failed
  int vacuous = 0;  ///< cases outside the law's domain
  std::string first_vacuous_reason;
  std::optional<MergeCase> smallest;  ///< the smallest failing case, when the law failed
  Verdict smallest_verdict;
  int shrink_steps = 0;       ///< smaller failing cases found after the first
  bool budget_spent = false;  ///< shrinking stopped at its budget
  /// Why the property did not hold, "" when it did: the law's failure, or an exception the
  /// property threw (a case the runner refused, no device), which leaves no smallest case.
  std::string property_failure;
  /// The property failed without a failing case: it threw.
  bool errored() const { return !failed() && !property_failure.empty(); }
  bool failed() const { return smallest.has_value(); }
  bool mostly_vacuous() const { return vacuous > judged; }
};

/// Runs `law` on `k`; `on_first` is called with the first counterexample's verdict and case.
MergeLawRun run_merge_law(const MergeLaw& law, const MergeKernel& k, double shrink_seconds,
                          const std::function<void(const Verdict&, const MergeCase&)>& on_first,
                          const RcParams& params = std::nullopt);

/// Why `law` is left out for `k` (a declared skip, a law its declarations rule out, a kernel that
/// cannot run in this process), or "" when it runs.
std::string why_skipped(const MergeKernel& k, const MergeLaw& law);

/// The regression record of a failed run (as regression_of for row kernels).
MergeRegression regression_of(const MergeKernel& k, const MergeLaw& law, const MergeLawRun& run,
                              const std::string& found_by);

/// Judges one case; a breach the runner reports (KernelFailure) fails the law.
Verdict judge_merge(const MergeLaw& law, const MergeKernel& k, const MergeCase& c);

/// "3 partials of 2 rows x head_dim 4, bf16, base e": a case's shape in a line.
std::string summary(const MergeCase& c);

}  // namespace osvs::testbed
