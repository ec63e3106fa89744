// The reference on hand-made rows: special values, worked examples, ties, signed zeros,
// subnormal and underflowing outputs, and correct rounding against a much higher precision.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "osvs/oracle/reference.h"

namespace osvs::oracle {
namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

RowReference reference_of(const std::vector<float>& x) {
  return reference_row(x.data(), static_cast<std::int64_t>(x.size()));
}

TEST(Reference, SpecialRowsAreExplicitOutcomes) {
  EXPECT_EQ(reference_of({1, kNaN, 2}).kind, RowKind::NaN);
  EXPECT_EQ(reference_of({kInf, kNaN}).kind, RowKind::NaN);  // NaN wins over +inf
  EXPECT_EQ(reference_of({1, kInf}).kind, RowKind::PosInf);
  const RowReference pos_inf = reference_of({1, kInf});
  ASSERT_EQ(pos_inf.y_rounded.size(), 2u);  // one NaN per element, not an empty row
  for (float y : pos_inf.y_rounded) EXPECT_TRUE(std::isnan(y));
  const RowReference masked = reference_of({-kInf, -kInf});
  EXPECT_EQ(masked.kind, RowKind::AllMasked);
  EXPECT_EQ(masked.m, -kInf);
  EXPECT_EQ(masked.d, 0);
  const RowReference empty = reference_row(nullptr, 0);
  EXPECT_EQ(empty.kind, RowKind::Empty);
  EXPECT_TRUE(empty.y.empty());
  EXPECT_EQ(empty.d, 0);
}

TEST(Reference, BadInputIsAClearError) {
  EXPECT_THROW(reference_row(nullptr, 3), std::invalid_argument);
  const float x = 1;
  EXPECT_THROW(reference_row(&x, -1), std::invalid_argument);
  EXPECT_THROW(reference_row_mpfr_at(&x, 1, 41, nullptr), std::invalid_argument);
}

TEST(Reference, MaskedElementsGiveExactZeros) {
  const RowReference r = reference_of({-kInf, 0});
  EXPECT_EQ(r.kind, RowKind::Finite);
  EXPECT_EQ(r.y_rounded[0], 0.0f);
  EXPECT_EQ(r.y_rounded[1], 1.0f);
  EXPECT_EQ(r.d, 1.0);
  EXPECT_EQ(r.y[0], 0.0);  // the exact value too, not only its rounding (was NaN once)
  EXPECT_EQ(r.y[1], 1.0);
  const RowReference far = reference_of({-kInf, -0x1.2cp+8f});
  EXPECT_EQ(far.y[0], 0.0);
  EXPECT_EQ(far.y[1], 1.0);
}

TEST(Reference, LessonExample) {
  // [1, 2]: m = 2, d = 1 + e^-1; y_0 = 1 / (1 + e), y_1 = e / (1 + e). Long double has 11 more
  // bits than double; its rounding to float agrees unless y lies within 2^-64 of a midpoint.
  const RowReference r = reference_of({1, 2});
  EXPECT_EQ(r.m, 2.0f);
  EXPECT_NEAR(r.d, 1 + std::exp(-1.0), 1e-15);
  const long double e = std::exp(1.0L);
  EXPECT_EQ(r.y_rounded[0], static_cast<float>(1 / (1 + e)));
  EXPECT_EQ(r.y_rounded[1], static_cast<float>(e / (1 + e)));
  EXPECT_NEAR(r.lse, 2 + std::log1p(std::exp(-1.0)), 1e-15);
}

TEST(Reference, TiesAndSignedZeros) {
  const RowReference r = reference_of({5, 5, 5});
  EXPECT_EQ(r.d, 3.0);
  ASSERT_EQ(r.y_rounded.size(), 3u);
  for (float y : r.y_rounded) EXPECT_EQ(y, 1.0f / 3.0f);  // 1/3 correctly rounded
  const RowReference z = reference_of({-0.0f, 0.0f});
  EXPECT_FALSE(std::signbit(z.m));
  EXPECT_EQ(z.y_rounded[0], 0.5f);
  EXPECT_EQ(z.y_rounded[1], 0.5f);
}

TEST(Reference, UnderflowBoundaryOfTheSubnormalRange) {
  // Row [0, x]: y_1 = e^x / (1 + e^x) ~ e^x. The boundary between rounding to 0 and to 2^-149
  // is y = 2^-150, i.e. x = -150 ln 2 = -103.97207708...; floats near it are 7.6e-6 apart, so
  // each neighbour is decidedly on one side.
  const double boundary = -150 * std::log(2.0);
  float above = static_cast<float>(boundary);
  if (above < boundary) above = std::nextafter(above, 0.0f);
  const float below = std::nextafter(above, -kInf);
  EXPECT_EQ(reference_of({0, above}).y_rounded[1], 0x1p-149f);
  EXPECT_EQ(reference_of({0, below}).y_rounded[1], 0.0f);
  EXPECT_EQ(reference_of({0, -200}).y_rounded[1], 0.0f);
  EXPECT_GT(reference_of({0, -200}).y[1], 0.0);  // the double reference keeps the tiny value
}

TEST(Reference, HugeGapsDoNotOverflow) {
  const RowReference r = reference_of({FLT_MAX, -FLT_MAX});
  EXPECT_EQ(r.y_rounded[0], 1.0f);
  EXPECT_EQ(r.y_rounded[1], 0.0f);
  EXPECT_EQ(r.d, 1.0);
}

TEST(Reference, CorrectRoundingAgainstAMuchHigherPrecision) {
  // The fast path (double + Ziv fallback) against MPFR at 640 decimal digits (about 2126 bits)
  // on rows whose outputs span normal, subnormal and underflowing floats.
  std::mt19937 rng(20240611);
  std::normal_distribution<float> wide(0.0f, 40.0f);
  for (int row = 0; row < 20; ++row) {
    std::vector<float> x(64);
    for (float& v : x) v = wide(rng);
    const RowReference fast = reference_of(x);
    std::vector<std::int64_t> undecided;
    const RowReference slow = reference_row_mpfr_at(x.data(), 64, 640, &undecided);
    EXPECT_TRUE(undecided.empty());
    for (std::size_t j = 0; j < x.size(); ++j) {
      EXPECT_EQ(fast.y_rounded[j], slow.y_rounded[j]) << "row " << row << " element " << j;
      EXPECT_EQ(fast.y_binade[j], slow.y_binade[j]) << "row " << row << " element " << j;
      EXPECT_LE(std::fabs(fast.y[j] - slow.y[j]), kReferenceRelErr * slow.y[j] + 0x1p-180);
    }
    EXPECT_LE(std::fabs(fast.d - slow.d), kReferenceRelErr * slow.d);
  }
}

}  // namespace
}  // namespace osvs::oracle
