// The judgement separates findings (claimed law fails, or the property throws) from known
// defects (the law fails where it is not claimed), from cases that were not run (vacuous, or a law
// the executor cannot judge) and from passes.
#include <gtest/gtest.h>

#include <stdexcept>

#include "osvs/fuzz/judge.h"

namespace osvs::fuzz {
namespace {

Verdict passes(const Case&, Executor&) {
  return Verdict::pass();
}
Verdict fails(const Case&, Executor&) {
  return Verdict::fail("fails by construction");
}
Verdict vacuous(const Case&, Executor&) {
  return Verdict::vacuous("outside the domain by construction");
}
Verdict not_run(const Case&, Executor&) {
  return Verdict::not_run("needs a second party by construction");
}
Verdict throws(const Case&, Executor&) {
  throw std::invalid_argument("refused");
}
bool claimed(const Case&) {
  return true;
}
bool not_claimed(const Case&) {
  return false;
}

Judgement run(PropertyFn check, bool (*claim)(const Case&)) {
  const PropertyInfo p{"test", "a law", true, check, claim};
  const auto cpu = make_cpu_executor();
  return judge(p, Case{}, *cpu);
}

TEST(Judge, AHoldingLawIsNoFinding) {
  EXPECT_EQ(run(&passes, &claimed).outcome, Outcome::Holds);
  EXPECT_EQ(run(&passes, &not_claimed).outcome, Outcome::Holds);
}

TEST(Judge, AVacuousOrNotRunCaseIsNeitherAPassNorAFinding) {
  for (PropertyFn check : {&vacuous, &not_run}) {
    EXPECT_EQ(run(check, &claimed).outcome, Outcome::NotRun);
    EXPECT_EQ(run(check, &not_claimed).outcome, Outcome::NotRun);
  }
  EXPECT_STREQ(to_string(Outcome::NotRun), "not run");
}

TEST(Judge, TheLawsNeedingASecondPartyAreNotRunOnTheCpuModel) {
  Case c;
  c.rows = {{1.0f, 2.0f}};
  const auto cpu = make_cpu_executor();
  for (const char* name : {"determinism", "executor_agreement"})
    EXPECT_EQ(judge(*find_property(name), c, *cpu).outcome, Outcome::NotRun) << name;
}

TEST(Judge, AClaimedLawThatFailsIsAFinding) {
  EXPECT_EQ(run(&fails, &claimed).outcome, Outcome::Finding);
}

TEST(Judge, AnUnclaimedLawThatFailsIsAKnownDefect) {
  EXPECT_EQ(run(&fails, &not_claimed).outcome, Outcome::KnownDefect);
}

TEST(Judge, AThrowingPropertyIsAFindingWithItsMessage) {
  const Judgement j = run(&throws, &not_claimed);
  EXPECT_EQ(j.outcome, Outcome::Finding);
  EXPECT_TRUE(j.threw);
  EXPECT_NE(j.verdict.explanation.find("refused"), std::string::npos);
}

}  // namespace
}  // namespace osvs::fuzz
