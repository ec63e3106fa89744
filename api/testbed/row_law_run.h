// One row law on one row kernel under RapidCheck: cases shaped by the kernel's declaration
// (row_cases.h), the first counterexample reported the moment it is found, shrinking within a
// time budget, the smallest failing case kept. The testbed's GoogleTest half and the Python
// bindings both drive it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "law_run.h"
#include "osvs/api/row_laws.h"
#include "osvs/api/row_regression.h"

namespace osvs::testbed {

using RowLawRun = LawRun<RowCase>;

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
