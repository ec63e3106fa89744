// The replay test: every file under reports/regressions runs through its registered property on
// the executor named by --executor (cpu or cuda) and must meet its expectation. GPU-only files skip
// on the CPU with their reason; on a machine without a GPU the cuda run skips with the reason.
//
//   osvs_replay_tests --executor cpu|cuda [gtest flags]
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "osvs/testing/skip_marker.h"

#include "osvs/properties/registry.h"
#include "osvs/replay/print.h"
#include "osvs/replay/replay.h"

namespace osvs {
namespace {

std::string g_executor_name = "cpu";  // set by main from --executor

/// The executor of this run, made once; nullptr with the reason when it cannot be made.
Executor* run_executor(std::string* why_not) {
  static std::string reason;
  static const std::unique_ptr<Executor> executor = make_executor(g_executor_name, &reason);
  *why_not = reason;
  return executor.get();
}

std::vector<std::filesystem::path> committed_files() {
  const auto root = default_regression_root();
  if (!std::filesystem::is_directory(root)) return {};
  return regression_files(root);
}

/// "<property>_<id>" from ".../<property>/<id>.json", with characters gtest refuses replaced.
std::string test_name(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  std::string name =
      info.param.parent_path().filename().string() + "_" + info.param.stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class ReplayFile : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(ReplayFile, MeetsItsExpectation) {
  std::string why_not;
  Executor* executor = run_executor(&why_not);
  if (executor == nullptr) GTEST_SKIP() << "no " << g_executor_name << " executor: " << why_not;
  const ReplayOutcome o = replay_file(GetParam(), *executor, &find_property);
  if (o.status == ReplayStatus::Skipped) GTEST_SKIP() << o.message;
  EXPECT_EQ(o.status, ReplayStatus::Met) << format_outcome(o);
}

INSTANTIATE_TEST_SUITE_P(Regressions, ReplayFile, ::testing::ValuesIn(committed_files()),
                         test_name);

TEST(RegressionDirectory, HoldsTheCommittedFindings) {
  // The minimum: the seed combine's FMA non-commutativity and the naive identity's NaN.
  EXPECT_TRUE(std::filesystem::is_directory(default_regression_root() / "commutativity"))
      << default_regression_root();
  EXPECT_TRUE(std::filesystem::is_directory(default_regression_root() / "identity_right"))
      << default_regression_root();
}

}  // namespace
}  // namespace osvs

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);  // removes the gtest flags
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--executor" && i + 1 < argc) {
      osvs::g_executor_name = argv[++i];
    } else if (arg.rfind("--executor=", 0) == 0) {
      osvs::g_executor_name = arg.substr(std::strlen("--executor="));
    } else {
      std::fprintf(stderr, "osvs_replay_tests: unknown argument %s (use --executor cpu|cuda)\n",
                   argv[i]);
      return 2;
    }
  }
  osvs::testing::install_skip_marker();
  return RUN_ALL_TESTS();
}
