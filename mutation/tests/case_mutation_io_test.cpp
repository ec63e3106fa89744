// The `mutation` field of a Case in the JSON format (Case::mutant, a kernel mutant of the
// registry): written only when set (old files and their content ids are unchanged), read back, a
// missing field is no mutant, an unknown name is named with the registered ones; a mutation run's
// counterexample replays on its mutant.
#include <gtest/gtest.h>

#include "osvs/mutation/kernel_mutants.h"
#include "osvs/properties/check_case.h"
#include "osvs/properties/registry.h"
#include "osvs/replay/case_io.h"
#include "osvs/replay/replay.h"

namespace osvs {
namespace {

class CaseMutationIo : public ::testing::Test {
 protected:
  void SetUp() override { mutation::register_kernel_mutants(); }
};

TEST_F(CaseMutationIo, RoundTripsEveryMutant) {
  for (const mutation::KernelMutant* m : mutation::kernel_mutants()) {
    Case c;
    c.mutant = m->entry.name;
    c.rows = {{1.0f, 2.0f}};
    EXPECT_EQ(parse_case(serialize_case(c)).mutant, m->entry.name);
  }
}

TEST_F(CaseMutationIo, NoneIsNotWrittenAndMissingMeansNone) {
  Case c;
  c.rows = {{1.0f}};
  const std::string text = serialize_case(c);
  EXPECT_EQ(text.find("\"mutation\""), std::string::npos) << text;
  EXPECT_TRUE(parse_case(text).mutant.empty());
  Case m = c;
  m.mutant = "shuffle_up";
  // The id of an unmutated case does not see the field; a mutated case is a different case.
  EXPECT_EQ(canonical_case_text("p", c).find("\"mutation\""), std::string::npos);
  EXPECT_NE(canonical_case_text("p", c), canonical_case_text("p", m));
}

TEST_F(CaseMutationIo, UnknownMutantIsNamedWithTheRegisteredOnes) {
  Case c;
  c.mutant = "shuffle_up";
  std::string text = serialize_case(c);
  text.replace(text.find("shuffle_up"), 10, "shuffle_sideways");
  try {
    parse_case(text, "f.json");
    FAIL() << "an unknown mutant was accepted";
  } catch (const RegressionFormatError& e) {
    EXPECT_EQ(e.field(), "mutation");
    const std::string what = e.what();
    EXPECT_NE(what.find("shuffle_sideways"), std::string::npos) << what;
    for (const mutation::KernelMutant* m : mutation::kernel_mutants())
      EXPECT_NE(what.find(m->entry.name), std::string::npos) << what;
  }
}

TEST_F(CaseMutationIo, AMutantsCounterexampleReplaysOnTheMutant) {
  // skip_last_element never folds x[0] of a one-element row: its state is the identity and the
  // output 0, not 1. The file's case names the mutant, so replay runs the mutant and the
  // documented defect is met; the same case without the name holds on the kernel under test.
  RegressionRecord r;
  r.property = "accuracy";
  r.input.mutant = "skip_last_element";
  r.input.rows = {{0.0f}};
  r.expectation = Expectation::Violates;
  const auto cpu = make_cpu_executor();
  const RegressionRecord back = parse_regression(serialize_regression(r), "mem.json");
  const ReplayOutcome o = replay_record(back, "mem.json", *cpu, &find_property);
  EXPECT_EQ(o.status, ReplayStatus::Met) << o.message;
  ASSERT_TRUE(o.verdict.has_value());
  EXPECT_TRUE(o.verdict->fails());
  Case unmutated = back.input;
  unmutated.mutant.clear();
  EXPECT_TRUE(check_case(*find_property("accuracy"), unmutated, *cpu).holds());
}

}  // namespace
}  // namespace osvs
