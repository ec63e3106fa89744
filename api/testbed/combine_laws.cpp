#include "combine_laws.h"

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>

#include "osvs/api/combine.h"
#include "osvs/properties/law_runner.h"
#include "osvs/properties/registry.h"
#include "osvs/replay/case_io.h"
#include "osvs/replay/replay.h"
#include "testbed_settings.h"

namespace osvs::testbed {
namespace {

constexpr const char* kPrefix = "[ osvs     ] ";

/// The executor of one side, made once; nullptr with the reason when unavailable.
Executor* executor(bool gpu, std::string* why_not) {
  static const auto cpu = make_cpu_executor();
  static std::string cuda_reason;
  static const auto cuda = make_cuda_executor(&cuda_reason);
  if (!gpu) return cpu.get();
  if (!cuda) *why_not = cuda_reason;
  return cuda.get();
}

std::string found_text(const LawRun& run) {
  const FailingCase& f = *run.smallest_failure;
  return f.verdict.explanation + " (shrunk in " + std::to_string(run.shrink_steps) + " steps" +
         (run.shrink_stopped.empty() ? "" : "; stopped: " + run.shrink_stopped) + ")";
}

class CombineLawTest : public ::testing::Test {
 public:
  CombineLawTest(const RegisteredCombineTest* t, LawSpec law, bool gpu)
      : t_(t), law_(std::move(law)), gpu_(gpu) {}

  void TestBody() override {
    const std::string name = to_string(t_->kind);
    if (auto it = t_->test.skips().find(law_.property); it != t_->test.skips().end())
      GTEST_SKIP() << name << " declares: " << it->second;
    const PropertyInfo* p = find_property(law_.property);
    ASSERT_NE(p, nullptr) << "no property named " << law_.property;
    Case configuration;
    configuration.combine = t_->kind;
    const auto defect = t_->test.known_defects().find(law_.property);
    const bool expect_failure =
        defect != t_->test.known_defects().end() && defect->second.applies(gpu_);
    if (!expect_failure && !p->claimed(configuration))
      GTEST_SKIP() << name << " does not claim \"" << p->law << "\" (its declarations)";
    std::string why;
    Executor* ex = executor(gpu_, &why);
    if (!ex) GTEST_SKIP() << why;
    if (gpu_ && t_->kind.op().device == nullptr)
      GTEST_SKIP() << name << " was registered from host code: no device launchers";
    const RunLimits limits = limits_from_rapidcheck_configuration({50000, shrink_budget_seconds()});
    const auto first = [&](const LawRun& run) {
      std::cout << kPrefix << name << "/" << run.property
                << " first counterexample: " << run.first_failure->verdict.explanation << "\n"
                << kPrefix << "shrinking (budget " << limits.shrink.max_seconds << " s) ..."
                << std::endl;
    };
    const LawRun run = run_law(law_, *ex, limits, first);
    if (!run.not_run.empty()) GTEST_SKIP() << law_.property << " not run: " << run.not_run;
    EXPECT_TRUE(run.rapidcheck_error.empty()) << run.rapidcheck_error;
    if (!run.failed()) {
      EXPECT_FALSE(run.mostly_vacuous())
          << law_.property << ": " << run.vacuous << " of " << run.cases
          << " cases were vacuous (e.g. " << run.first_vacuous_reason << ")";
      if (expect_failure)
        ADD_FAILURE() << name << " declares " << law_.property << " a known defect ("
                      << defect->second.reason << "), yet no counterexample was found in "
                      << run.judged() << " cases: remove the declaration if it was fixed";
      return;
    }
    RegressionRecord r;
    r.property = law_.property;
    r.input = run.smallest_failure->input;
    r.verdict = run.smallest_failure->verdict;
    r.expectation = expect_failure ? Expectation::Violates : Expectation::Holds;
    r.needs_gpu = ex->is_gpu();
    r.provenance = make_provenance(*ex, "testbed");
    r.note = expect_failure ? "known defect: " + defect->second.reason
                            : "found failing: replay must show the law holding once fixed";
    std::string saved;
    try {
      saved = write_regression(r, regression_root()).string();
    } catch (const std::exception& e) {
      saved = std::string("(not saved: ") + e.what() + ")";
    }
    const std::string report = name +
                               (expect_failure ? " shows its known defect in " : " breaks ") +
                               law_.property + " on " + ex->name() + ": " + found_text(run) +
                               "\nsaved " + saved + "\nreplay: --osvs-replay=" + saved;
    if (expect_failure)
      std::cout << kPrefix << report << "\n";
    else
      ADD_FAILURE() << report;
  }

 private:
  const RegisteredCombineTest* t_;
  LawSpec law_;
  bool gpu_;
};

/// The saved combine cases of one operator under OSVS_REPLAY_DIR, each replayed where it was
/// found (a GPU case on the GPU, skipped without one).
class CombineReplayTest : public ::testing::Test {
 public:
  explicit CombineReplayTest(CombineKind kind) : kind_(kind) {}
  void TestBody() override {
    const std::string dir = replay_dir();
    if (dir.empty()) GTEST_SKIP() << "OSVS_REPLAY_DIR not set: no saved cases to replay";
    if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no saved cases: no folder " << dir;
    int replayed = 0;
    for (const auto& path : regression_files(dir)) {
      std::optional<RegressionRecord> r;
      try {
        r = read_regression(path);
      } catch (const std::exception&) {
        continue;  // not a combine case (a row kernel's file)
      }
      if (r->input.combine != kind_) continue;
      std::string why;
      Executor* ex = executor(r->needs_gpu, &why);
      if (!ex) continue;
      const ReplayOutcome o = replay_record(*r, path, *ex, &find_property);
      EXPECT_TRUE(acceptable(o)) << path.string() << ": " << to_string(o.status) << ": "
                                 << o.message;
      ++replayed;
    }
    if (replayed == 0)
      GTEST_SKIP() << "no saved cases for " << to_string(kind_) << " under " << dir;
  }

 private:
  CombineKind kind_;
};

}  // namespace

void register_combine_tests() {
  for (const RegisteredCombineTest& t : combine_tests()) {
    const RegisteredCombineTest* tp = &t;
    const std::string suite = std::string("combine_") + to_string(t.kind);
    ::testing::RegisterTest(suite.c_str(), "replay", nullptr, nullptr, __FILE__, __LINE__,
                            [tp]() -> ::testing::Test* { return new CombineReplayTest(tp->kind); });
    for (const LawSpec& law : combine_laws(t.kind))
      for (const bool gpu : {false, true})
        ::testing::RegisterTest(
            suite.c_str(), (law.property + (gpu ? "_gpu" : "_cpu")).c_str(), nullptr, nullptr,
            __FILE__, __LINE__,
            [tp, law, gpu]() -> ::testing::Test* { return new CombineLawTest(tp, law, gpu); });
  }
}

std::optional<int> replay_combine_file(const std::filesystem::path& file) {
  std::optional<RegressionRecord> r;
  try {
    r = read_regression(file);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string why;
  Executor* ex = executor(r->needs_gpu, &why);
  if (!ex) {
    std::cerr << "osvs: " << file << " needs a GPU: " << why << "\n";
    return 2;
  }
  std::cout << "combine " << to_string(r->input.combine) << ", law " << r->property << ", expect "
            << (r->expectation == Expectation::Holds ? "holds" : "violates") << ", on "
            << ex->name() << "\n";
  const ReplayOutcome o = replay_record(*r, file, *ex, &find_property);
  std::cout << "replay: " << to_string(o.status) << (o.message.empty() ? "" : ": " + o.message)
            << "\n";
  return acceptable(o) && o.status != ReplayStatus::Skipped ? 0 : 1;
}

}  // namespace osvs::testbed
