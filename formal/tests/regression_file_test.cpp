// A failed proof becomes a regression file that `osvs replay` runs (regression_file.h): the
// seed's FMA non-commutativity and the registered mutant without hardened's tie rule, each
// written from the solver's model (in float32, bf16 and fp16 states), read back with replay/'s
// reader, and replayed on the CPU model in the states' format, where the law fails as the file
// expects. An operator the combine registry does not hold gets no
// file, with the reason.
#include <gtest/gtest.h>

#include <cmath>

#include "in_each_format.h"
#include "osvs/formal/operators.h"
#include "osvs/formal/regression_file.h"
#include "osvs/properties/registry.h"
#include "osvs/replay/case_io.h"
#include "temp_dir.h"

namespace osvs::formal {
namespace {

ProofResult commutativity_of(const std::string& op_name, const ProveOptions& options = {}) {
  const FormalOperator& op = find_formal_operator(op_name);
  for (const LawClaim& c : op.laws)
    if (c.law == Law::Commutativity) return op.prove(c.law, c.domain, options);
  throw std::logic_error(op_name + " has no commutativity entry");
}

/// Whether a double of the verdict's evidence is the float x (its bits, NaNs by their sign).
bool same_float(double evidence, float x) {
  if (std::isnan(x)) return std::isnan(evidence) && std::signbit(evidence) == std::signbit(x);
  return osvs::float_bits(static_cast<float>(evidence)) == osvs::float_bits(x) && evidence == x;
}

/// Writes r's counterexample on the CPU model into a fresh folder, reads the file back with
/// replay/'s reader, checks it against r and replays it; returns what was read.
RegressionRecord write_read_and_replay(const ProofResult& r) {
  const testing::TempDir dir;
  const auto cpu = make_cpu_executor();
  const WrittenCounterexample w = write_counterexample(r, *cpu, dir.path());
  EXPECT_TRUE(w.new_file) << w.why_not;
  EXPECT_EQ(w.file.parent_path(), dir.path() / "commutativity");
  const RegressionRecord back = read_regression(w.file);
  EXPECT_EQ(back.property, "commutativity");
  EXPECT_EQ(to_string(back.input.combine), r.op);
  EXPECT_EQ(back.expectation, Expectation::Violates);
  EXPECT_FALSE(back.verdict.holds()) << "the verdict when found is the law failing";
  EXPECT_EQ(back.provenance.found_by, "smt");
  EXPECT_EQ(back.provenance.executor, "cpu");
  EXPECT_NE(back.provenance.solver.find(r.op + " commutativity over " + r.domain),
            std::string::npos)
      << back.provenance.solver;
  // The states are the model's, bit for bit, in the proof's format.
  EXPECT_EQ(back.input.state_format, r.format.dtype());
  EXPECT_EQ(back.input.states.size(), 2u);
  if (back.input.states.size() == 2) {
    EXPECT_TRUE(bitwise_equal(back.input.states[0], r.counterexample->a));
    EXPECT_TRUE(bitwise_equal(back.input.states[1], r.counterexample->b));
  }
  // The replay that `osvs replay` and replay.cpu run: the law fails, as the file expects.
  const ReplayOutcome o = replay_file(w.file, *cpu, &find_property);
  EXPECT_EQ(o.status, ReplayStatus::Met) << o.message;
  EXPECT_TRUE(o.verdict.has_value() && !o.verdict->holds());
  // The replay computes the sides the proof's concrete arithmetic computed, bit for bit (the
  // commutativity verdict's evidence: a (+) b's d and m against b (+) a's).
  if (o.verdict && o.verdict->evidence.size() == 2) {
    const std::vector<Evidence>& e = o.verdict->evidence;
    const Counterexample& c = *r.counterexample;
    EXPECT_TRUE(same_float(e[0].observed, c.lhs.d) && same_float(e[0].reference, c.rhs.d));
    EXPECT_TRUE(same_float(e[1].observed, c.lhs.m) && same_float(e[1].reference, c.rhs.m));
  }
  return back;
}

TEST(CounterexampleFile, SeedFmaNonCommutativityReplaysOnTheCpuModel) {
  const ProofResult r = commutativity_of("seed");
  ASSERT_TRUE(r.counterexample.has_value() && r.counterexample->reproduced) << describe(r);
  const RegressionRecord back = write_read_and_replay(r);
  // The contraction shows only where exp rounds: the case depends on the exp at a - b != 0, so it
  // is replayed with the arithmetic it was found with alone.
  EXPECT_FALSE(back.provenance.any_exp) << describe(r);
}

TEST(CounterexampleFile, MutantWithoutTheTieRuleReplaysOnEveryExecutor) {
  const ProofResult r = commutativity_of("mutant_unordered_ties");
  ASSERT_TRUE(r.counterexample.has_value() && r.counterexample->reproduced) << describe(r);
  const RegressionRecord back = write_read_and_replay(r);
  // A tie of +0 and -0: the exp meets +-0 alone, where every exp gives 1.
  EXPECT_TRUE(back.provenance.any_exp) << describe(r);
}

// A counterexample of a bf16 / fp16 state is written with its state_format, and replayed in that
// format (Executor::combine_pairs_in: kernels' Narrow, the arithmetic the proof's concrete side
// ran), where the law fails as the file expects.
class NarrowCounterexampleFile : public InEachFormat {};

TEST_P(NarrowCounterexampleFile, SeedFmaNonCommutativityReplaysInItsFormat) {
  const ProofResult r = commutativity_of("seed", options());
  ASSERT_TRUE(r.counterexample.has_value() && r.counterexample->reproduced) << describe(r);
  const RegressionRecord back = write_read_and_replay(r);
  EXPECT_FALSE(back.provenance.any_exp) << describe(r);
}

TEST_P(NarrowCounterexampleFile, MutantWithoutTheTieRuleReplaysInItsFormatOnEveryExecutor) {
  const ProofResult r = commutativity_of("mutant_unordered_ties", options());
  ASSERT_TRUE(r.counterexample.has_value() && r.counterexample->reproduced) << describe(r);
  const RegressionRecord back = write_read_and_replay(r);
  EXPECT_TRUE(back.provenance.any_exp) << describe(r);
}

INSTANTIATE_TEST_SUITE_P(Formats, NarrowCounterexampleFile, ::testing::Values(kBf16, kFp16),
                         format_name);

TEST(CounterexampleFile, AnOperatorTheRegistryDoesNotHoldGetsNoFileAndTheReason) {
  const ProofResult r = commutativity_of("engine_combine");  // examples/: no registry entry here
  ASSERT_TRUE(r.counterexample.has_value() && r.counterexample->reproduced) << describe(r);
  const testing::TempDir dir;
  const auto cpu = make_cpu_executor();
  const WrittenCounterexample w = write_counterexample(r, *cpu, dir.path());
  EXPECT_TRUE(w.file.empty());
  EXPECT_FALSE(w.confirmation.has_value());
  EXPECT_NE(w.why_not.find("'engine_combine' is no combine operator"), std::string::npos)
      << w.why_not;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

}  // namespace
}  // namespace osvs::formal
