// Row regression files: exact round trip, refusal of malformed files, replay against the
// expectation.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>

#include "misbehaving_kernels.h"
#include "osvs/api/regression.h"
#include "regression_record.h"

namespace osvs::test {
namespace {

RowRegression sample() {
  RowRegression r = regression_record<RowKind>("good", "accuracy");
  r.input.rows = {{0x1.8p+3f, -0.0f, std::numeric_limits<float>::denorm_min(), -INFINITY}};
  r.input.permutation = {3, 2, 1, 0};
  r.input.shift = 0x1p-3f;
  r.input.batch_rows = 3;
  r.input.batch_position = 2;
  r.input.layout = {1, 2};
  return r;
}

TEST(RowRegression, RoundTripsBitForBit) {
  const RowRegression r = sample();
  const RowRegression back = regression_from_json<RowKind>(to_json(r));
  ASSERT_EQ(back.input.rows.size(), 1u);
  ASSERT_EQ(back.input.rows[0].size(), r.input.rows[0].size());
  EXPECT_EQ(std::memcmp(back.input.rows[0].data(), r.input.rows[0].data(), 16), 0);
  EXPECT_EQ(back.input.permutation, r.input.permutation);
  EXPECT_EQ(back.input.shift, r.input.shift);
  EXPECT_EQ(back.input.batch_position, 2);
  EXPECT_EQ(back.input.layout.y_pad, 2);
  EXPECT_EQ(to_json(back), to_json(r));
}

TEST(RowRegression, RefusesMalformedFilesNamingTheField) {
  EXPECT_THROW(regression_from_json<RowKind>("{"), std::runtime_error);
  std::string text = to_json(sample());
  const auto at = text.find("accuracy");
  text.replace(at, 8, "accuracx");
  try {
    regression_from_json<RowKind>(text);
    FAIL() << "an unknown law was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("law"), std::string::npos) << e.what();
  }
  std::string bad_float = to_json(sample());
  bad_float.replace(bad_float.find("0x1.8p+3"), 8, "12.5");
  EXPECT_THROW(regression_from_json<RowKind>(bad_float), std::runtime_error);
}

TEST(RowRegression, ReplayComparesWithTheExpectation) {
  RowRegression r = sample();
  r.input = RowCase::of({{1, 2, 3}});
  EXPECT_EQ(replay_regression<RowKind>(host_kernel("good", good_softmax), r), "");
  r.expect_holds = false;  // a documented defect that no longer shows
  EXPECT_NE(replay_regression<RowKind>(host_kernel("good", good_softmax), r), "");
}

TEST(RowRegression, WritesOncePerContent) {
  const auto root = std::filesystem::temp_directory_path() / "osvs_row_regression_test";
  std::filesystem::remove_all(root);
  const auto a = write_regression(sample(), root);
  const auto b = write_regression(sample(), root);
  EXPECT_EQ(a, b);
  const auto all = read_regressions<RowKind>(root, "good");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(to_json(all[0].second), to_json(sample()));
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace osvs::test
