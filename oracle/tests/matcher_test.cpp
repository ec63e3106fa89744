// The matcher: passes within tolerance, fails with an explanation that names the element, the
// input as hex floats, the reference and the distance; special rows; bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "osvs/oracle/matcher.h"

namespace osvs::oracle {
namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(Matcher, CorrectlyRoundedOutputsPassWithHalfAnUlp) {
  const std::vector<float> x = {1, 2, 3};
  const RowReference r = reference_row(x.data(), 3);
  const MatchResult m = match_softmax(x.data(), 3, r.y_rounded.data(), r, {0.5, 0.5, 0.5});
  EXPECT_TRUE(m.ok) << m.explanation;
  EXPECT_LE(m.worst_ulp, 0.5);
  EXPECT_LE(m.worst_ratio, 1.0 + kReferenceUlpSlack);
}

TEST(Matcher, AnOffOutputFailsWithAnExplanation) {
  const std::vector<float> x = {1, 2, 3};
  const RowReference r = reference_row(x.data(), 3);
  std::vector<float> y = r.y_rounded;
  y[1] = std::nextafter(std::nextafter(y[1], 1.0f), 1.0f);  // two floats up: > 1.5 ulp away
  const MatchResult m = match_softmax(x.data(), 3, y.data(), r, {1, 1, 1});
  EXPECT_FALSE(m.ok);
  EXPECT_EQ(m.worst_index, 1);
  EXPECT_GT(m.worst_ulp, 1.5);
  EXPECT_NE(m.explanation.find("element 1 of 3"), std::string::npos) << m.explanation;
  EXPECT_NE(m.explanation.find("0x1p+1"), std::string::npos) << m.explanation;  // x[1] = 2
  EXPECT_NE(m.explanation.find("ulp"), std::string::npos);
}

TEST(Matcher, SpecialRows) {
  const std::vector<float> nan_row = {1, kNaN};
  const RowReference rn = reference_row(nan_row.data(), 2);
  const std::vector<float> all_nan = {kNaN, kNaN}, one_nan = {kNaN, 0.5f};
  EXPECT_TRUE(match_softmax(nan_row.data(), 2, all_nan.data(), rn, {}).ok);
  EXPECT_FALSE(match_softmax(nan_row.data(), 2, one_nan.data(), rn, {}).ok);

  const std::vector<float> masked = {-kInf, -kInf};
  const RowReference rm = reference_row(masked.data(), 2);
  const std::vector<float> zeros = {0, 0}, mixed = {0, kNaN};
  EXPECT_TRUE(match_softmax(masked.data(), 2, zeros.data(), rm, {}).ok);
  EXPECT_TRUE(match_softmax(masked.data(), 2, all_nan.data(), rm, {}).ok);
  EXPECT_FALSE(match_softmax(masked.data(), 2, mixed.data(), rm, {}).ok);
  EXPECT_FALSE(match_softmax(masked.data(), 2, zeros.data(), rm, {}, MaskedOutput::NaN).ok);
  EXPECT_TRUE(match_softmax(masked.data(), 2, zeros.data(), rm, {}, MaskedOutput::Zero).ok);
}

TEST(Matcher, BadInputIsAClearError) {
  const std::vector<float> x = {1, 2};
  const RowReference r = reference_row(x.data(), 2);
  EXPECT_THROW(match_softmax(x.data(), 2, r.y_rounded.data(), r, {1}), std::invalid_argument);
  EXPECT_THROW(match_softmax(x.data(), 3, r.y_rounded.data(), r, {1, 1, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace osvs::oracle
