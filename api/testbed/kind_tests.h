// The testbed's tests of any kind (osvs/api/kind.h), written once: a GoogleTest test per
// registered kernel and law (<prefix><kernel>.<law>), a replay test per kernel of its saved
// cases under OSVS_REPLAY_DIR, and the replay of one regression file (--osvs-replay=FILE).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "json_values.h"
#include "law_run.h"
#include "osvs/api/regression.h"
#include "test_names.h"
#include "testbed_settings.h"

namespace osvs::testbed {

inline constexpr const char* kPrefix = "[ osvs     ] ";

/// One law on one kernel: a counterexample fails the test, with the shrunk case saved and the
/// command that replays it; a declared known defect must show one, and shows it without failing.
template <class K>
class KindLawTest : public ::testing::Test {
 public:
  KindLawTest(const typename K::Kernel* k, const typename K::Law* law) : k_(k), law_(law) {}

  void TestBody() override {
    if (const std::string why = why_skipped<K>(*k_, *law_); !why.empty()) GTEST_SKIP() << why;
    const auto defect = k_->known_defects().find(law_->name);
    const bool expect_failure = defect != k_->known_defects().end();
    const double budget = shrink_budget_seconds();
    const auto run = run_law<K>(
        *law_, *k_, budget,
        [&](const Verdict& v, const auto& c) {
          std::cout << kPrefix << k_->name() << "/" << law_->name << " first counterexample ("
                    << K::summary(c) << "): " << v.explanation << "\n"
                    << kPrefix << "shrinking (budget " << budget << " s) ..." << std::endl;
        },
        std::nullopt, max_findings());
    EXPECT_FALSE(run.errored()) << run.property_failure;
    if (!run.failed()) {
      // A law the declaration rules out was skipped above, with its reason; here every case
      // should be judged, and one whose cases mostly were not means the generator misses its
      // domain.
      EXPECT_FALSE(run.mostly_not_judged())
          << law_->name << ": " << run.not_judged << " of " << (run.judged + run.not_judged)
          << " cases could not be judged (" << run.not_judged_reason
          << "): the generator misses the law's domain";
      if (expect_failure)
        ADD_FAILURE() << k_->name() << " declares " << law_->name << " a known defect ("
                      << defect->second << "), yet no counterexample was found in " << run.judged
                      << " cases: remove the declaration if the kernel was fixed";
      return;
    }
    report(*run.smallest, run.smallest_verdict, run.shrink_steps, run.budget_spent, expect_failure);
    for (const auto& other : run.other_findings) {
      std::cout << kPrefix << k_->name() << "/" << law_->name << " another finding (" << other.kind
                << ")\n";
      report(other.smallest, other.verdict, other.shrink_steps, other.budget_spent, expect_failure);
    }
  }

 private:
  /// One distinct failure: saved as a regression file, reported with its shrunk case and the
  /// command that replays it; a failure of the test unless the law is a declared known defect.
  void report(const typename K::Case& smallest, const Verdict& verdict, int shrink_steps,
              bool budget_spent, bool expect_failure) {
    std::cout << kPrefix << "shrinking " << (budget_spent ? "stopped at its budget" : "done")
              << " after " << shrink_steps << " smaller failing cases\n";
    const Regression<K> r = regression_of<K>(*k_, *law_, smallest, verdict,
                                             std::string("testbed, ") + to_string(k_->where()));
    std::string saved;
    try {
      saved = write_regression(r, regression_root()).string();
    } catch (const std::exception& e) {
      saved = std::string("(not saved: ") + e.what() + ")";
    }
    const std::string report =
        k_->name() + (expect_failure ? " shows its known defect in " : " breaks ") + law_->name +
        ": " + r.explanation + "\nshrunk case: " + K::summary(r.input) + "\nsaved " + saved +
        "\nreplay: --osvs-replay=" + saved;
    if (expect_failure)
      std::cout << kPrefix << report << "\n";
    else
      ADD_FAILURE() << report;
  }

  const typename K::Kernel* k_;
  const typename K::Law* law_;
};

/// Every saved case of one kernel under OSVS_REPLAY_DIR shows what its file expects.
template <class K>
class KindReplayTest : public ::testing::Test {
 public:
  explicit KindReplayTest(const typename K::Kernel* k) : k_(k) {}
  void TestBody() override {
    const std::string dir = replay_dir();
    if (dir.empty()) GTEST_SKIP() << "OSVS_REPLAY_DIR not set: no saved cases to replay";
    const auto files = read_regressions<K>(dir, k_->name());
    if (files.empty()) GTEST_SKIP() << "no saved cases for " << k_->name() << " under " << dir;
    std::string why;
    if (!runnable(*k_, &why)) GTEST_SKIP() << why;
    for (const auto& [path, r] : files) {
      if (const std::string ruled_out = K::excluded(*K::find_law(r.law), *k_); !ruled_out.empty()) {
        std::cout << kPrefix << path.string() << " not replayed: " << ruled_out << std::endl;
        continue;
      }
      EXPECT_EQ(replay_regression<K>(*k_, r), "") << path.string();
    }
  }

 private:
  const typename K::Kernel* k_;
};

/// Registers KindLawTest for every kernel and law of kind K, and KindReplayTest for every kernel;
/// suites are named <K::test_prefix><kernel> (test_name).
template <class K>
void register_kind_tests() {
  for (const auto& k : K::kernels()) {
    const auto* kp = &k;
    const std::string suite = K::test_prefix + test_name(k.name());
    ::testing::RegisterTest(suite.c_str(), "replay", nullptr, nullptr, __FILE__, __LINE__,
                            [kp]() -> ::testing::Test* { return new KindReplayTest<K>(kp); });
    for (const auto& law : K::laws()) {
      const auto* lp = &law;
      ::testing::RegisterTest(
          suite.c_str(), law.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
          [kp, lp]() -> ::testing::Test* { return new KindLawTest<K>(kp, lp); });
    }
  }
}

/// Replays one regression file of kind K (its text already read): the exit status, 0 when it
/// shows what it expects, 1 when not, 2 when it cannot run here.
template <class K>
int replay_kind_file(const std::filesystem::path& file, const std::string& text) {
  try {
    const Regression<K> r = regression_from_json<K>(text);
    const typename K::Kernel* k = K::find_kernel(r.kernel);
    if (!k) {
      std::cerr << "osvs: " << file.string() << ": " << K::name << " kernel '" << r.kernel
                << "' is not registered here\n";
      return 2;
    }
    std::string why;
    if (!runnable(*k, &why)) {
      std::cerr << "osvs: " << file.string() << ": " << why << "\n";
      return 2;
    }
    if (const std::string ruled_out = K::excluded(*K::find_law(r.law), *k); !ruled_out.empty()) {
      std::cerr << "osvs: " << file.string() << ": not replayed here: " << ruled_out << "\n";
      return 2;
    }
    std::cout << K::name << " kernel " << r.kernel << ", law " << r.law << ", expect "
              << (r.expect_holds ? "holds" : "violates") << "\nfound: " << r.found
              << "\nwhen found: " << r.explanation << "\n";
    const std::string problem = replay_regression<K>(*k, r);
    std::cout << (problem.empty() ? "replay: as expected" : "replay: " + problem) << "\n";
    return problem.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "osvs: " << file.string() << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace osvs::testbed
