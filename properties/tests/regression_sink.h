// Saving a shrunk counterexample as a regression file (replay/'s writer), with provenance.
#pragma once

#include <filesystem>
#include <string>

#include "osvs/kernels/executor.h"
#include "osvs/properties/case.h"
#include "osvs/properties/verdict.h"

namespace osvs::test {

/// Where shrunk counterexamples are written: $OSVS_REGRESSION_DIR when set (to add them to the
/// committed library, OSVS_REGRESSION_DIR=reports/regressions), else $OSVS_BUILD_DIR/regressions
/// (ctest sets OSVS_BUILD_DIR to the build folder), else osvs-reports/regressions in the current
/// directory. Never the source tree unless asked; the replay tests read reports/regressions.
std::filesystem::path regression_sink_root();

/// Writes (property, input, verdict) under regression_sink_root(); `defect` says the law is
/// not claimed (expectation Violates) rather than broken (Holds). Returns the path, or "" when
/// this build has no regression writer.
std::string save_regression(const std::string& property, const Case& input, const Verdict& verdict,
                            bool defect, const std::string& note, Executor& ex);

}  // namespace osvs::test
