// Drives one registered property with RapidCheck on the selected executor and turns the outcome
// into GoogleTest assertions: a claimed law must hold; a law the configuration does not claim
// must still fail (the known defect reproduces) and shrink small. Either way a counterexample is
// saved as a regression file.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "osvs/properties/registry.h"
#include "osvs/properties/suite.h"

namespace osvs::test {

/// Runs `law` of the suite as described above, judged by what `configuration` (the family's
/// kernel, combine and mutation) claims; fails the current test on an unexpected outcome.
void expect_law(const LawSpec& law, const Case& configuration);

/// The GoogleTest fixture: skips (never discards) when the executor is unavailable.
class PropertyTest : public ::testing::Test {
 protected:
  void SetUp() override;
};

}  // namespace osvs::test
