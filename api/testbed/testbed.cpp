#include "osvs/api/testbed.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "combine_laws.h"
#include "merge_tests.h"
#include "osvs/api/combine.h"
#include "osvs/api/merge_registry.h"
#include "osvs/api/registry.h"
#include "osvs/api/row_regression.h"
#include "osvs/testing/skip_marker.h"
#include "row_law_run.h"
#include "test_names.h"
#include "testbed_settings.h"

namespace osvs {
namespace {

/// The fixed default seed: CI is deterministic; RC_PARAMS overrides it.
constexpr const char* kDefaultRcParams = "seed=20261130";

class LawTest : public ::testing::Test {
 public:
  LawTest(const RowKernel* k, const RowLaw* law) : k_(k), law_(law) {}

  void TestBody() override {
    if (const std::string why = testbed::why_skipped(*k_, *law_); !why.empty()) GTEST_SKIP() << why;
    const auto defect = k_->known_defects().find(law_->name);
    const bool expect_failure = defect != k_->known_defects().end();
    const double budget = testbed::shrink_budget_seconds();
    const testbed::RowLawRun run =
        testbed::run_row_law(*law_, *k_, budget, [&](const Verdict& v, const RowCase& c) {
          std::cout << "[ osvs     ] " << k_->name() << "/" << law_->name
                    << " first counterexample (" << testbed::summary(c) << "): " << v.explanation
                    << "\n[ osvs     ] shrinking (budget " << budget << " s) ..." << std::endl;
        });
    // A law the declaration rules out was skipped above, with its reason; here every case should
    // be judged, and one whose cases mostly were not means the generator misses its domain.
    if (!run.failed() && run.mostly_not_judged())
      ADD_FAILURE() << law_->name << ": " << run.not_judged << " of "
                    << (run.judged + run.not_judged) << " cases could not be judged ("
                    << run.not_judged_reason << "): the generator misses the law's domain";
    EXPECT_FALSE(run.errored()) << run.property_failure;
    if (!run.failed()) {
      if (expect_failure)
        ADD_FAILURE() << k_->name() << " declares " << law_->name << " a known defect ("
                      << defect->second << "), yet no counterexample was found in " << run.judged
                      << " cases: remove the declaration if the kernel was fixed";
      return;
    }
    std::cout << "[ osvs     ] shrinking " << (run.budget_spent ? "stopped at its budget" : "done")
              << " after " << run.shrink_steps << " smaller failing cases\n";
    const RowRegression r =
        testbed::regression_of(*k_, *law_, run, std::string("testbed, ") + to_string(k_->where()));
    const auto root = testbed::regression_root();
    std::string saved;
    try {
      saved = write_row_regression(r, root).string();
    } catch (const std::exception& e) {
      saved = std::string("(not saved: ") + e.what() + ")";
    }
    const std::string report = k_->name() +
                               (expect_failure ? " shows its known defect in " : " breaks ") +
                               law_->name + ": " + run.smallest_verdict.explanation +
                               "\nshrunk case: " + testbed::summary(*run.smallest) + "\nsaved " +
                               saved + "\nreplay: --osvs-replay=" + saved;
    if (expect_failure)
      std::cout << "[ osvs     ] " << report << "\n";
    else
      ADD_FAILURE() << report;
  }

 private:
  const RowKernel* k_;
  const RowLaw* law_;
};

class ReplayTest : public ::testing::Test {
 public:
  explicit ReplayTest(const RowKernel* k) : k_(k) {}
  void TestBody() override {
    const std::string dir = testbed::replay_dir();
    if (dir.empty()) GTEST_SKIP() << "OSVS_REPLAY_DIR not set: no saved cases to replay";
    std::string why;
    const auto files = read_row_regressions(dir, k_->name());
    if (files.empty()) GTEST_SKIP() << "no saved cases for " << k_->name() << " under " << dir;
    if (!runnable(*k_, &why)) GTEST_SKIP() << why;
    for (const auto& [path, r] : files) {
      if (const RowLaw* law = find_row_law(r.law); law && !law->excluded(*k_).empty()) {
        std::cout << "[ osvs     ] " << path.string() << " not replayed: " << law->excluded(*k_)
                  << std::endl;
        continue;
      }
      const std::string problem = replay_row_regression(*k_, r);
      EXPECT_EQ(problem, "") << path.string();
    }
  }

 private:
  const RowKernel* k_;
};

void register_tests() {
  for (const RowKernel& k : row_kernels()) {
    const RowKernel* kp = &k;
    const std::string suite = testbed::test_name(k.name());
    ::testing::RegisterTest(suite.c_str(), "replay", nullptr, nullptr, __FILE__, __LINE__,
                            [kp]() -> ::testing::Test* { return new ReplayTest(kp); });
    for (const RowLaw& law : row_laws()) {
      const RowLaw* lp = &law;
      ::testing::RegisterTest(suite.c_str(), law.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [kp, lp]() -> ::testing::Test* { return new LawTest(kp, lp); });
    }
  }
}

int replay_one(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "osvs: cannot read " << path << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    const RowRegression r = row_regression_from_json(text.str());
    const RowKernel* k = find_row_kernel(r.kernel);
    if (!k) {
      std::cerr << "osvs: " << path << ": kernel '" << r.kernel << "' is not registered here\n";
      return 2;
    }
    if (const RowLaw* law = find_row_law(r.law); law && !law->excluded(*k).empty()) {
      std::cerr << "osvs: " << path << ": not replayed here: " << law->excluded(*k) << "\n";
      return 2;
    }
    std::cout << "kernel " << r.kernel << ", law " << r.law << ", expect "
              << (r.expect_holds ? "holds" : "violates") << "\nfound: " << r.found
              << "\nwhen found: " << r.explanation << "\n";
    const std::string problem = replay_row_regression(*k, r);
    std::cout << (problem.empty() ? "replay: as expected" : "replay: " + problem) << "\n";
    return problem.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "osvs: " << path << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int run_testbed(int argc, char** argv) {
  int kept = 1;
  std::optional<std::string> replay;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--osvs-replay=", 14) == 0)
      replay = argv[i] + 14;
    else if (std::strcmp(argv[i], "--osvs-list") == 0)
      list = true;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  if (list) {
    for (const RowKernel& k : row_kernels())
      std::cout << k.name() << "  " << to_string(k.op()) << " " << to_string(k.in_type()) << "->"
                << to_string(k.out_type()) << " on " << to_string(k.where()) << ", contract "
                << k.accuracy().describe() << "\n";
    for (const RegisteredCombineTest& t : combine_tests()) {
      const CombineAlgebra a = algebra_of(t.kind);
      std::cout << to_string(t.kind) << "  combine operator"
                << (a.bitwise_commutative ? ", bitwise commutative" : "")
                << (a.exact_identity ? ", exact identity" : "") << ", bound shape "
                << (a.rescales_both_sides ? "two exps per combine" : "one exp per combine")
                << (t.kind.op().device ? ", host and device" : ", host only") << "\n";
    }
    for (const MergeKernel& k : merge_kernels()) {
      std::cout << k.name() << "  merge kernel on " << to_string(k.where()) << ", o";
      for (DType t : k.o_types()) std::cout << " " << to_string(t);
      std::cout << ", lse base";
      for (LseBase b : k.lse_bases()) std::cout << " " << to_string(b);
      std::cout << ", empty partial " << to_string(k.empty_partial()) << "\n";
    }
    return 0;
  }
  if (replay) {
    if (const auto status = testbed::replay_merge_file(*replay)) return *status;
    if (const auto status = testbed::replay_combine_file(*replay)) return *status;
    return replay_one(*replay);
  }
  if (!std::getenv("RC_PARAMS")) setenv("RC_PARAMS", kDefaultRcParams, 0);
  ::testing::InitGoogleTest(&argc, argv);
  testing::install_skip_marker();
  if (row_kernels().empty() && combine_tests().empty() && merge_kernels().empty()) {
    std::cerr << "osvs: no row kernel, combine operator or merge kernel is registered in this "
                 "program\n";
    return 2;
  }
  register_tests();
  testbed::register_combine_tests();
  testbed::register_merge_tests();
  return RUN_ALL_TESTS();
}

}  // namespace osvs
