#include "merge_tests.h"

#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "json_values.h"
#include "merge_law_run.h"
#include "osvs/api/merge_registry.h"
#include "osvs/api/merge_regression.h"
#include "osvs/api/merge_runner.h"
#include "test_names.h"
#include "testbed_settings.h"

namespace osvs::testbed {
namespace {

constexpr const char* kPrefix = "[ osvs     ] ";

class MergeLawTest : public ::testing::Test {
 public:
  MergeLawTest(const MergeKernel* k, const MergeLaw* law) : k_(k), law_(law) {}

  void TestBody() override {
    if (const std::string why = why_skipped(*k_, *law_); !why.empty()) GTEST_SKIP() << why;
    const auto defect = k_->known_defects().find(law_->name);
    const bool expect_failure = defect != k_->known_defects().end();
    const double budget = shrink_budget_seconds();
    const MergeLawRun run =
        run_merge_law(*law_, *k_, budget, [&](const Verdict& v, const MergeCase& c) {
          std::cout << kPrefix << k_->name() << "/" << law_->name << " first counterexample ("
                    << summary(c) << "): " << v.explanation << "\n"
                    << kPrefix << "shrinking (budget " << budget << " s) ..." << std::endl;
        });
    EXPECT_FALSE(run.errored()) << run.property_failure;
    if (!run.failed()) {
      EXPECT_FALSE(run.mostly_not_judged())
          << law_->name << ": " << run.not_judged << " of " << (run.judged + run.not_judged)
          << " cases were vacuous (e.g. " << run.not_judged_reason
          << "): the generator misses the law's domain";
      if (expect_failure)
        ADD_FAILURE() << k_->name() << " declares " << law_->name << " a known defect ("
                      << defect->second << "), yet no counterexample was found in " << run.judged
                      << " cases: remove the declaration if the kernel was fixed";
      return;
    }
    std::cout << kPrefix << "shrinking " << (run.budget_spent ? "stopped at its budget" : "done")
              << " after " << run.shrink_steps << " smaller failing cases\n";
    const MergeRegression r =
        regression_of(*k_, *law_, run, std::string("testbed, ") + to_string(k_->where()));
    std::string saved;
    try {
      saved = write_merge_regression(r, regression_root()).string();
    } catch (const std::exception& e) {
      saved = std::string("(not saved: ") + e.what() + ")";
    }
    const std::string report =
        k_->name() + (expect_failure ? " shows its known defect in " : " breaks ") + law_->name +
        ": " + r.explanation + "\nshrunk case: " + summary(r.input) + "\nsaved " + saved +
        "\nreplay: --osvs-replay=" + saved;
    if (expect_failure)
      std::cout << kPrefix << report << "\n";
    else
      ADD_FAILURE() << report;
  }

 private:
  const MergeKernel* k_;
  const MergeLaw* law_;
};

class MergeReplayTest : public ::testing::Test {
 public:
  explicit MergeReplayTest(const MergeKernel* k) : k_(k) {}
  void TestBody() override {
    const std::string dir = replay_dir();
    if (dir.empty()) GTEST_SKIP() << "OSVS_REPLAY_DIR not set: no saved cases to replay";
    const auto files = read_merge_regressions(dir, k_->name());
    if (files.empty()) GTEST_SKIP() << "no saved cases for " << k_->name() << " under " << dir;
    std::string why;
    if (!runnable(*k_, &why)) GTEST_SKIP() << why;
    for (const auto& [path, r] : files)
      EXPECT_EQ(replay_merge_regression(*k_, r), "") << path.string();
  }

 private:
  const MergeKernel* k_;
};

}  // namespace

void register_merge_tests() {
  for (const MergeKernel& k : merge_kernels()) {
    const MergeKernel* kp = &k;
    const std::string suite = "merge_" + test_name(k.name());
    ::testing::RegisterTest(suite.c_str(), "replay", nullptr, nullptr, __FILE__, __LINE__,
                            [kp]() -> ::testing::Test* { return new MergeReplayTest(kp); });
    for (const MergeLaw& law : merge_laws()) {
      const MergeLaw* lp = &law;
      ::testing::RegisterTest(suite.c_str(), law.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [kp, lp]() -> ::testing::Test* { return new MergeLawTest(kp, lp); });
    }
  }
}

std::optional<int> replay_merge_file(const std::filesystem::path& file) {
  std::string text;
  try {
    text = api::read_text(file.string());
  } catch (const std::exception&) {
    return std::nullopt;  // the row replay reports the unreadable file
  }
  if (!is_merge_regression(text)) return std::nullopt;
  try {
    const MergeRegression r = merge_regression_from_json(text);
    const MergeKernel* k = find_merge_kernel(r.kernel);
    if (!k) {
      std::cerr << "osvs: " << file << ": merge kernel '" << r.kernel
                << "' is not registered here\n";
      return 2;
    }
    std::string why;
    if (!runnable(*k, &why)) {
      std::cerr << "osvs: " << file << ": " << why << "\n";
      return 2;
    }
    std::cout << "merge kernel " << r.kernel << ", law " << r.law << ", expect "
              << (r.expect_holds ? "holds" : "violates") << "\nfound: " << r.found
              << "\nwhen found: " << r.explanation << "\n";
    const std::string problem = replay_merge_regression(*k, r);
    std::cout << (problem.empty() ? "replay: as expected" : "replay: " + problem) << "\n";
    return problem.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "osvs: " << file << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace osvs::testbed
