// Saving a shrunk counterexample as a regression file (replay/'s writer), with provenance.
#pragma once

#include <string>

#include "osvs/kernels/executor.h"
#include "osvs/properties/case.h"
#include "osvs/properties/verdict.h"

namespace osvs::test {

/// Writes (property, input, verdict) under default_regression_root(); `defect` says the law is
/// not claimed (expectation Violates) rather than broken (Holds). Returns the path, or "" when
/// this build has no regression writer.
std::string save_regression(const std::string& property, const Case& input, const Verdict& verdict,
                            bool defect, const std::string& note, Executor& ex);

}  // namespace osvs::test
