// Drives one registered property with RapidCheck on the selected executor and turns the outcome
// into GoogleTest assertions: a claimed law must hold; a law the configuration does not claim
// must still fail (the known defect reproduces) and shrink small. Either way a counterexample is
// saved as a regression file.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstddef>
#include <functional>
#include <string>

#include "osvs/properties/registry.h"

namespace osvs::test {

/// Tags a generated case for RapidCheck's class distribution (RC_TAG / RC_CLASSIFY).
using Classifier = std::function<void(const Case&)>;

struct LawRun {
  std::string property;  ///< registry name
  rc::Gen<Case> cases;   ///< the generator for this configuration family
  Case configuration;    ///< kernel/combine/block the family uses (for claimed())
  Classifier classify = [](const Case&) {};
  std::size_t max_shrunk_states = 0;  ///< for combine-level defects: the shrunk case's size limit
};

/// Runs the law as described above; fails the current test on an unexpected outcome.
void expect_law(const LawRun& run);

/// The GoogleTest fixture: skips (never discards) when the executor is unavailable.
class PropertyTest : public ::testing::Test {
 protected:
  void SetUp() override;
};

}  // namespace osvs::test
