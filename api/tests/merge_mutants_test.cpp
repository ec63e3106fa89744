// The merge mutants (mutation/include/osvs/mutation/merge_mutants.h) under the merge laws, each
// as a registered kernel would be, on the CPU model and on the device (the merge-states kernel
// compiled with the mutant's policy): every mutant must be killed by some law, and its
// counterexample must shrink to at most 4 partials of head_dim at most 4. The shrunk cases are
// saved (OSVS_REGRESSION_DIR); the committed ones (reports/regressions/attention/) are replayed.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <set>
#include <tuple>

#include "law_run.h"
#include "osvs/api/merge_host_io.h"
#include "osvs/api/merge_runner.h"
#include "osvs/api/regression.h"
#include "osvs/kernels/attention/attention_executor.h"
#include "osvs/mutation/merge_mutants.h"
#include "osvs/testing/source_file.h"
#include "testbed_settings.h"

namespace osvs::test {
namespace {

constexpr std::size_t kMaxShrunkPartials = 4;
constexpr int kMaxShrunkHeadDim = 4;
constexpr int kShrinkSeconds = 10;

using mutation::MergeMutant;

/// The mutant as osvs's own merge kernel is declared (api/builtin/builtin_merge.h): on the host
/// the CPU model with the mutant's policy, on the device the merge-states kernel compiled with it
/// (a device entry without a launcher, in a build without CUDA, is not runnable and skips).
MergeKernel mutant_kernel(const MergeMutant& m, Where where) {
  const std::string name = std::string("osvs.merge_mutant.") + m.name;
  MergeKernel k(where == Where::Host ? name + ".cpu_model" : name, where);
  if (where == Where::Host)
    k.run([&m](const MergeProblem& p) {
      store_result(p, m.cpu_model(operand_a(p), operand_b(p), p.base));
    });
  else if (m.launch != nullptr)
    k.run([&m](const MergeProblem& p) {
      m.launch(p.o_type, p.o_a_ptr, p.lse_a, p.o_b_ptr, p.lse_b, p.o_out_ptr, p.lse_out, p.rows,
               p.head_dim, p.base, p.stream);
    });
  return k.o_types({DType::F32, DType::BF16, DType::F16})
      .lse_bases({LseBase::E, LseBase::Two})
      .description(m.bug);
}

/// Why the device mutants cannot run here ("" when they can).
std::string device_unavailable() {
  if (mutation::merge_mutants().front().launch == nullptr)
    return "built without CUDA (OSVS_WITH_CUDA=OFF): the device mutants are not compiled";
  std::string why;
  return runnable(MergeKernel("probe", Where::Device), &why) ? "" : why;
}

/// The device, driver and exp of this process's GPU, for the saved cases' provenance.
std::string device_description() {
  std::string why;
  const auto gpu = make_cuda_attention_executor(&why);
  return gpu ? gpu->describe() : why;
}

const char* side_name(Where w) {
  return w == Where::Host ? "cpu_model" : "cuda";
}

class MergeMutantTest : public ::testing::TestWithParam<std::tuple<MergeMutant, Where>> {};

TEST_P(MergeMutantTest, IsKilledWithASmallCounterexample) {
  const auto [mutant, where] = GetParam();
  if (where == Where::Device)
    if (const std::string why = device_unavailable(); !why.empty()) GTEST_SKIP() << why;
  const MergeKernel k = mutant_kernel(mutant, where);
  for (const MergeLaw& law : merge_laws()) {
    if (law.name == "large_batch") continue;  // opt-in, no small counterexample: its own tests
    const testbed::LawRun<MergeCase> run = testbed::run_law<MergeKind>(
        law, k, kShrinkSeconds, [](const Verdict&, const MergeCase&) {});
    if (!run.failed()) continue;
    const MergeCase& c = *run.smallest;
    std::cout << "[ osvs     ] " << k.name() << " (" << mutant.bug << ") killed by " << law.name
              << ": " << MergeKind::summary(c) << " after " << run.shrink_steps
              << " shrinking steps: " << run.smallest_verdict.explanation.substr(0, 240) << "\n";
    // Shrinking that stopped at its budget (a device shared with other work runs each candidate
    // slower) says so beside the size it reached.
    const std::string shrunk =
        MergeKind::summary(c) + (run.budget_spent ? " (shrinking stopped at its budget of " +
                                                        std::to_string(kShrinkSeconds) + " s)"
                                                  : "");
    EXPECT_LE(c.parts.size(), kMaxShrunkPartials) << shrunk;
    EXPECT_LE(c.parts.front().head_dim, kMaxShrunkHeadDim) << shrunk;
    MergeRegression r;
    r.kernel = k.name();
    r.law = law.name;
    r.expect_holds = false;
    r.note = std::string("mutant: ") + mutant.bug;
    r.found = regression_provenance(std::string("merge mutant gate, ") +
                                    (where == Where::Host ? "cpu model" : device_description()));
    r.explanation = run.smallest_verdict.explanation;
    r.input = c;
    std::cout << "[ osvs     ] saved " << write_regression(r, testbed::regression_root()) << "\n";
    return;
  }
  ADD_FAILURE() << k.name() << " survived every merge law: " << mutant.bug;
}

INSTANTIATE_TEST_SUITE_P(Every, MergeMutantTest,
                         ::testing::Combine(::testing::ValuesIn(mutation::merge_mutants()),
                                            ::testing::Values(Where::Host, Where::Device)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) + "_" +
                                  side_name(std::get<1>(info.param));
                         });

TEST(MergeMutants, TheCatalogueHasEightOrMoreDistinctMutants) {
  std::set<std::string> names;
  for (const MergeMutant& m : mutation::merge_mutants()) names.insert(m.name);
  EXPECT_GE(names.size(), 8u);
  EXPECT_EQ(names.size(), mutation::merge_mutants().size());
  EXPECT_EQ(names.count("none"), 0u) << "the real merge is not a mutant";
}

/// The committed counterexamples of every mutant on one side: each must still fail its law.
void replay_committed(Where where) {
  const std::filesystem::path committed =
      osvs::testing::source_file("reports/regressions/attention");
  int replayed = 0;
  for (const MergeMutant& m : mutation::merge_mutants()) {
    const MergeKernel k = mutant_kernel(m, where);
    for (const auto& [path, r] : read_regressions<MergeKind>(committed.string(), k.name())) {
      EXPECT_FALSE(r.expect_holds) << path << ": a mutant's case must expect the law to fail";
      EXPECT_EQ(replay_regression<MergeKind>(k, r), "") << path;
      ++replayed;
    }
  }
  std::cout << "[ osvs     ] " << replayed << " committed " << side_name(where)
            << " mutant counterexamples replayed\n";
  EXPECT_GE(replayed, static_cast<int>(mutation::merge_mutants().size()))
      << "every " << side_name(where) << " mutant should have its counterexample under "
      << committed;
}

TEST(MergeMutants, CommittedCounterexamplesStillKill_cpu_model) {
  replay_committed(Where::Host);
}

TEST(MergeMutants, CommittedCounterexamplesStillKill_cuda) {
  if (const std::string why = device_unavailable(); !why.empty()) GTEST_SKIP() << why;
  replay_committed(Where::Device);
}

}  // namespace
}  // namespace osvs::test
