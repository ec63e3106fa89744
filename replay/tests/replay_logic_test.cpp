// Replay bookkeeping: verdict against expectation, GPU-only skips, per-file errors that do not stop
// the other files, and files left untouched.
#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

#include "fake_properties.h"
#include "osvs/replay/case_io.h"
#include "osvs/replay/print.h"
#include "temp_dir.h"

namespace osvs {
namespace {

RegressionRecord record(float d, Expectation e, bool needs_gpu = false) {
  RegressionRecord r;
  r.property = "d_is_one";
  r.input.states = {State{0.0f, d}};
  r.expectation = e;
  r.needs_gpu = needs_gpu;
  return r;
}

ReplayOutcome replay_on_cpu(const RegressionRecord& r) {
  auto cpu = make_cpu_executor();
  return replay_record(r, "x.json", *cpu, testing::fake_lookup);
}

TEST(ReplayLogic, VerdictAgainstExpectation) {
  EXPECT_EQ(replay_on_cpu(record(1.0f, Expectation::Holds)).status, ReplayStatus::Met);
  EXPECT_EQ(replay_on_cpu(record(2.0f, Expectation::Holds)).status, ReplayStatus::Regressed);
  EXPECT_EQ(replay_on_cpu(record(2.0f, Expectation::Violates)).status, ReplayStatus::Met);
  const ReplayOutcome stale = replay_on_cpu(record(1.0f, Expectation::Violates));
  EXPECT_EQ(stale.status, ReplayStatus::Stale);
  EXPECT_NE(stale.message.find("stale"), std::string::npos) << stale.message;
}

TEST(ReplayLogic, GpuOnlyRecordsSkipOnTheCpuAndRunOnAGpu) {
  const RegressionRecord r = record(2.0f, Expectation::Violates, /*needs_gpu=*/true);
  const ReplayOutcome cpu = replay_on_cpu(r);
  EXPECT_EQ(cpu.status, ReplayStatus::Skipped);
  EXPECT_EQ(cpu.message, "needs a GPU; the cpu executor is not one");
  EXPECT_TRUE(acceptable(cpu));
  testing::FakeGpuExecutor gpu;
  EXPECT_EQ(replay_record(r, "x.json", gpu, testing::fake_lookup).status, ReplayStatus::Met);
}

TEST(ReplayLogic, ADefectIsReplayedWithItsArithmeticUnlessItDependsOnNoExpValue) {
  RegressionRecord r = record(2.0f, Expectation::Violates);
  r.provenance.executor = "cpu";
  r.provenance.device = "CPU model (glibc expf)";
  testing::FakeGpuExecutor gpu;
  const ReplayOutcome elsewhere = replay_record(r, "x.json", gpu, testing::fake_lookup);
  EXPECT_EQ(elsewhere.status, ReplayStatus::Skipped) << elsewhere.message;
  EXPECT_NE(elsewhere.message.find("found with cpu with glibc expf"), std::string::npos)
      << elsewhere.message;
  r.provenance.any_exp = true;  // an SMT counterexample on the exp facts alone (formal/)
  EXPECT_EQ(replay_record(r, "x.json", gpu, testing::fake_lookup).status, ReplayStatus::Met);
}

TEST(ReplayLogic, UnknownPropertyAndThrowingPropertyAreErrorsNamingTheFile) {
  RegressionRecord r = record(1.0f, Expectation::Holds);
  r.property = "no_such_property";
  ReplayOutcome o = replay_on_cpu(r);
  EXPECT_EQ(o.status, ReplayStatus::Error);
  EXPECT_EQ(o.message, "x.json: property: \"no_such_property\" is not a registered property");
  r = record(1.0f, Expectation::Holds);
  r.input.states.clear();  // the fake property throws on this
  o = replay_on_cpu(r);
  EXPECT_EQ(o.status, ReplayStatus::Error);
  EXPECT_EQ(o.message, "x.json: property \"d_is_one\" threw: needs one state");
}

// A case of bf16 / fp16 states replays only through a law that combines states in their format
// (PropertyInfo::narrow_states); elsewhere it is an error that says so.
TEST(ReplayLogic, NarrowStatesOnALawOfFloatStatesAreAnError) {
  RegressionRecord r = record(1.0f, Expectation::Holds);
  r.input.state_format = DType::BF16;
  const ReplayOutcome o = replay_on_cpu(r);
  EXPECT_EQ(o.status, ReplayStatus::Error);
  EXPECT_EQ(o.message,
            "x.json: property \"d_is_one\" threw: the property d_is_one takes float32 states only; "
            "this case's states are stored in bf16 (state_format)");
}

TEST(ReplayLogic, ABadFileDoesNotStopTheOthersAndNothingIsRewritten) {
  testing::TempDir root;
  const auto good = write_regression(record(1.0f, Expectation::Holds), root.path());
  const auto defect = write_regression(record(3.0f, Expectation::Violates), root.path());
  const auto broken = root.path() / "d_is_one" / "broken.json";
  std::ofstream(broken) << serialize_regression(record(5.0f, Expectation::Holds)).substr(0, 40);
  const std::string broken_before = testing::contents(broken),
                    good_before = testing::contents(good);

  auto cpu = make_cpu_executor();
  const auto outcomes =
      replay_paths({root.path(), root.path() / "missing.json"}, *cpu, testing::fake_lookup);
  ASSERT_EQ(outcomes.size(), 4u);  // three files in the tree (sorted) and the missing path
  int met = 0;
  for (const auto& o : outcomes) met += o.status == ReplayStatus::Met;
  EXPECT_EQ(met, 2);
  const auto is_broken = [&](const ReplayOutcome& o) { return o.file == broken; };
  const auto b = std::find_if(outcomes.begin(), outcomes.end(), is_broken);
  ASSERT_NE(b, outcomes.end());
  EXPECT_EQ(b->status, ReplayStatus::Error);
  EXPECT_EQ(b->message.rfind(broken.string() + ": not valid JSON", 0), 0u) << b->message;
  EXPECT_EQ(outcomes.back().message,
            (root.path() / "missing.json").string() + ": no such file or directory");
  const ReplaySummary s = summarize(outcomes);
  EXPECT_EQ(s.met, 2);
  EXPECT_EQ(s.errors, 2);
  EXPECT_FALSE(s.all_acceptable());
  EXPECT_EQ(testing::contents(broken), broken_before);
  EXPECT_EQ(testing::contents(good), good_before);
  (void)defect;
}

TEST(ReplayLogic, PrintingShowsInputsVerdictAndStatus) {
  const ReplayOutcome o = replay_on_cpu(record(2.0f, Expectation::Violates));
  const std::string text = format_outcome(o);
  EXPECT_NE(text.find("state 0 = (m 0x0p+0 (0), d 0x1p+1 (2))"), std::string::npos) << text;
  EXPECT_NE(text.find("d: observed 0x1p+1 (2), reference 0x1p+0 (1), error 1 ulp, bound 0 ulp"
                      "  <-- exceeds the bound"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("=> met"), std::string::npos) << text;
}

TEST(ReplayLogic, EveryKindsApiFileIsLeftToItsTestbedAndASuiteFileWithoutSchemaIsAnError) {
  testing::TempDir dir;
  for (const char* kind : {"row", "merge", "attention", "reduction", "a_future_kind"}) {
    const auto file = dir.path() / (std::string(kind) + ".json");
    std::ofstream(file) << "{\"osvs_" << kind << "_regression\": 1, \"kernel\": \"k\"}";
    auto cpu = make_cpu_executor();
    const ReplayOutcome o = replay_file(file, *cpu, testing::fake_lookup);
    EXPECT_EQ(o.status, ReplayStatus::Skipped) << kind << ": " << o.message;
    EXPECT_NE(o.message.find(std::string("osvs_") + kind + "_regression"), std::string::npos)
        << o.message;
  }
  const auto suite = dir.path() / "suite.json";
  std::ofstream(suite) << "{\"osvs_\": 1, \"property\": \"d_is_one\"}";
  auto cpu = make_cpu_executor();
  EXPECT_EQ(replay_file(suite, *cpu, testing::fake_lookup).status, ReplayStatus::Error);
}

}  // namespace
}  // namespace osvs
