// One row law on one row kernel under RapidCheck: cases shaped by the kernel's declaration
// (row_cases.h), the first counterexample reported the moment it is found, shrinking within a
// time budget, the smallest failing case kept. The testbed's GoogleTest half and the Python
// bindings both drive it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "osvs/api/row_laws.h"
#include "osvs/api/row_regression.h"
#include "rc_check.h"

namespace osvs::testbed {

struct RowLawRun {
  int judged = 0;      ///< cases on which the law held or failed
  int not_judged = 0;  ///< cases the law could not judge
  std::string not_judged_reason;
  std::optional<RowCase> smallest;  ///< the smallest failing case, when the law failed
  Verdict smallest_verdict;
  int shrink_steps = 0;       ///< smaller failing cases found after the first
  bool budget_spent = false;  ///< shrinking stopped at its budget
  /// Why the property did not hold, "" when it did: the law's failure, or an exception the
  /// property threw (a case the runner refused, no device), which leaves no smallest case.
  std::string property_failure;
  /// The property failed without a failing case: it threw.
  bool errored() const { return !failed() && !property_failure.empty(); }
  bool failed() const { return smallest.has_value(); }
  /// Most cases were outside the law's domain: the generator misses it.
  bool mostly_not_judged() const { return not_judged > judged; }
};

/// Why `law` is left out for `k` (a declared skip, a law the declaration rules out, a kernel that
/// cannot run in this process), or "" when it runs.
std::string why_skipped(const RowKernel& k, const RowLaw& law);

/// Runs `law` on `k`; `on_first` is called with the first counterexample's verdict and case.
RowLawRun run_row_law(const RowLaw& law, const RowKernel& k, double shrink_seconds,
                      const std::function<void(const Verdict&, const RowCase&)>& on_first,
                      const RcParams& params = std::nullopt);

/// The regression record of a failed run: its smallest case, and what replaying must show (the
/// law holding once the kernel is fixed, or still failing for a declared known defect);
/// `found_by` goes into the provenance line.
RowRegression regression_of(const RowKernel& k, const RowLaw& law, const RowLawRun& run,
                            const std::string& found_by);

/// Judges one case; a breach the runner reports (KernelFailure) fails the law.
Verdict judge_row(const RowLaw& law, const RowKernel& k, const RowCase& c);

/// "2 row(s) of 17 elements, padding 1/0": a case's shape in a line.
std::string summary(const RowCase& c);

}  // namespace osvs::testbed
