// One merge law on one merge kernel under RapidCheck: generated cases fitted to the kernel's
// declarations (fixed seed unless RC_PARAMS says otherwise), the first counterexample reported
// the moment it is found, shrinking within a time budget, the smallest failing case kept. The
// testbed's merge half and the mutant gate (api/tests/merge_mutants_test.cpp) both drive it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "law_run.h"
#include "osvs/api/merge_laws.h"
#include "osvs/api/merge_regression.h"

namespace osvs::testbed {

using MergeLawRun = LawRun<MergeCase>;

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
