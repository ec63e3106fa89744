// Where the property tests write their shrunk counterexamples: the build folder by default, the
// committed library (reports/regressions) only when asked through OSVS_REGRESSION_DIR.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "regression_sink.h"

namespace osvs::test {
namespace {

/// Sets (or unsets, for nullopt) an environment variable for one scope, restoring it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(RegressionSink, WritesIntoTheBuildFolderByDefault) {
  ScopedEnv explicit_dir("OSVS_REGRESSION_DIR", std::nullopt);
  ScopedEnv build("OSVS_BUILD_DIR", "/the/build");
  ScopedEnv source("OSVS_SOURCE_DIR", "/the/source");
  EXPECT_EQ(regression_sink_root(), std::filesystem::path("/the/build/regressions"));
}

TEST(RegressionSink, WritesIntoTheCommittedLibraryOnlyWhenAsked) {
  ScopedEnv explicit_dir("OSVS_REGRESSION_DIR", "/the/source/reports/regressions");
  ScopedEnv build("OSVS_BUILD_DIR", "/the/build");
  EXPECT_EQ(regression_sink_root(), std::filesystem::path("/the/source/reports/regressions"));
}

TEST(RegressionSink, OutsideCtestWritesUnderTheCurrentDirectory) {
  ScopedEnv explicit_dir("OSVS_REGRESSION_DIR", std::nullopt);
  ScopedEnv build("OSVS_BUILD_DIR", std::nullopt);
  ScopedEnv source("OSVS_SOURCE_DIR", "/the/source");
  const std::filesystem::path root = regression_sink_root();
  EXPECT_TRUE(root.is_relative()) << root;
  EXPECT_EQ(root, std::filesystem::path("osvs-reports") / "regressions");
}

}  // namespace
}  // namespace osvs::test
