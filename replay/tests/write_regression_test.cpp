// write_regression: content-addressed, write-once files under <root>/<property>/<id>.json.
#include <gtest/gtest.h>

#include "osvs/replay/case_io.h"
#include "temp_dir.h"

namespace osvs {
namespace {

RegressionRecord sample_record() {
  RegressionRecord r;
  r.property = "identity";
  r.input.combine = CombineKind::Seed;
  r.input.states = {State{-__builtin_huge_valf(), 0.0f}};
  r.expectation = Expectation::Violates;
  r.note = "first note";
  return r;
}

TEST(WriteRegression, WritesUnderPropertyAndIdAndReadsBack) {
  testing::TempDir root;
  const RegressionRecord r = sample_record();
  const auto path = write_regression(r, root.path());
  EXPECT_EQ(path, root.path() / "identity" / (regression_id(r) + ".json"));
  EXPECT_EQ(testing::contents(path), serialize_regression(r));
  EXPECT_EQ(read_regression(path).note, "first note");
}

TEST(WriteRegression, NeverOverwritesTheSameCase) {
  testing::TempDir root;
  const RegressionRecord r = sample_record();
  const auto first = write_regression(r, root.path());
  RegressionRecord again = r;
  again.note = "second note";  // same property and input: same id
  EXPECT_EQ(write_regression(again, root.path()), first);
  EXPECT_EQ(read_regression(first).note, "first note");
  std::size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root.path()))
    files += e.is_regular_file();
  EXPECT_EQ(files, 1u);  // no temporary left behind
}

TEST(WriteRegression, RefusesPropertyNamesThatAreNotFileNames) {
  testing::TempDir root;
  RegressionRecord r = sample_record();
  for (const char* bad : {"", "..", "a/b", "x y"}) {
    r.property = bad;
    EXPECT_THROW(write_regression(r, root.path()), std::invalid_argument) << bad;
  }
}

TEST(WriteRegression, DefaultRootFollowsTheEnvironment) {
  ::setenv("OSVS_REGRESSION_DIR", "/some/where", 1);
  EXPECT_EQ(default_regression_root(), std::filesystem::path("/some/where"));
  ::unsetenv("OSVS_REGRESSION_DIR");
  EXPECT_EQ(default_regression_root().filename(), "regressions");
}

}  // namespace
}  // namespace osvs
