// Drives one law of the suite with RapidCheck on the selected executor (law_runner.h) and turns the
// outcome into GoogleTest assertions: a claimed law must hold; a law the configuration does not
// claim must still fail (the known defect reproduces) and shrink small; a law whose generated
// cases are mostly vacuous fails (it was hardly checked); a law that cannot run on the executor is
// skipped with the reason, never passed. A counterexample is printed the moment it is found and
// saved as a regression file once shrunk.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <ostream>

#include "osvs/properties/law_runner.h"
#include "osvs/properties/registry.h"
#include "osvs/properties/suite.h"

namespace osvs::test {

/// How far a failing law shrinks: each law at most this, and the whole binary at most
/// kBinaryShrinkSeconds (later failures are then reported unshrunk). A failing run of a ctest
/// entry therefore takes at most its passing time plus kBinaryShrinkSeconds plus one evaluation
/// per failing law, well inside the entries' timeouts (tests/CMakeLists.txt).
inline constexpr ShrinkLimits kLawShrinkLimits{50000, 30.0};
inline constexpr double kBinaryShrinkSeconds = 120.0;

/// Runs `law` on `executor` within `limits`, writing to `out` as it goes: the first counterexample
/// (explanation and case summary) the moment it is found, before shrinking; then how far shrinking
/// got and the smallest counterexample; the number of vacuous cases.
LawRun drive_law(const LawSpec& law, Executor& executor, const RunLimits& limits,
                 std::ostream& out);

/// Runs `law` of the suite on the selected executor as described above, judged by what
/// `configuration` (the family's kernel, combine and mutant) claims; fails (or skips) the
/// current test on an unexpected outcome.
void expect_law(const LawSpec& law, const Case& configuration);

/// The GoogleTest fixture: skips (never discards) when the executor is unavailable.
class PropertyTest : public ::testing::Test {
 protected:
  void SetUp() override;
};

}  // namespace osvs::test
