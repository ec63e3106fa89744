// The gate: every mutant of the catalogue killed. The old gate only compared with the kills of a
// committed baseline, so a mutant new to the catalogue that survived passed it.
#include <gtest/gtest.h>

#include <algorithm>

#include "osvs/mutation/gate.h"
#include "osvs/mutation/mutants.h"

namespace osvs::mutation {
namespace {

MutantResult result(const std::string& name, MutantStatus s) {
  MutantResult r;
  r.mutant = name;
  r.status = s;
  r.reason = "reason of " + name;
  return r;
}

bool names(const std::vector<std::string>& lines, const std::string& mutant) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.rfind(mutant + ":", 0) == 0; });
}

TEST(Gate, PassesWhenEveryCatalogueMutantIsKilled) {
  const std::vector<std::string> catalogue = {"a", "b"};
  const GateOutcome g = judge_gate(
      catalogue, {result("a", MutantStatus::Killed), result("b", MutantStatus::Killed)}, false);
  EXPECT_TRUE(g.passed());
  EXPECT_TRUE(g.not_run.empty());
}

TEST(Gate, ANewSurvivorFailsTheGateByName) {
  // "fresh" has never been killed by any run: no baseline could list it.
  const std::vector<std::string> catalogue = {"a", "fresh"};
  const GateOutcome g = judge_gate(
      catalogue, {result("a", MutantStatus::Killed), result("fresh", MutantStatus::Survived)},
      true);
  ASSERT_FALSE(g.passed());
  ASSERT_EQ(g.failures.size(), 1u);
  EXPECT_TRUE(names(g.failures, "fresh")) << g.failures[0];
  EXPECT_NE(g.failures[0].find("survived"), std::string::npos) << g.failures[0];
}

TEST(Gate, ErrorsAndMissingMutantsFailByName) {
  const std::vector<std::string> catalogue = {"a", "broken", "absent"};
  const GateOutcome g = judge_gate(
      catalogue, {result("a", MutantStatus::Killed), result("broken", MutantStatus::Error)}, true);
  ASSERT_EQ(g.failures.size(), 2u);
  EXPECT_TRUE(names(g.failures, "broken"));
  EXPECT_TRUE(names(g.failures, "absent"));
}

TEST(Gate, NotRunIsNamedAndExcusedOnlyWhereAllowed) {
  const std::vector<std::string> catalogue = {"a", "device_only"};
  const std::vector<MutantResult> results = {result("a", MutantStatus::Killed),
                                             result("device_only", MutantStatus::Skipped)};
  const GateOutcome cpu = judge_gate(catalogue, results, true);
  EXPECT_TRUE(cpu.passed());
  EXPECT_EQ(cpu.not_run, std::vector<std::string>{"device_only"});
  const GateOutcome device = judge_gate(catalogue, results, false);
  EXPECT_FALSE(device.passed());
  EXPECT_TRUE(names(device.failures, "device_only"));
  EXPECT_EQ(device.not_run, std::vector<std::string>{"device_only"});
}

TEST(Gate, TheCatalogueIsEveryMutant) {
  const std::vector<std::string> catalogue = catalogue_names();
  ASSERT_EQ(catalogue.size(), all_mutants().size());
  for (const Mutant& m : all_mutants())
    EXPECT_NE(std::find(catalogue.begin(), catalogue.end(), m.name), catalogue.end()) << m.name;
}

}  // namespace
}  // namespace osvs::mutation
