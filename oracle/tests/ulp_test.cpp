// The ULP metric at its boundaries: powers of two, FLT_MIN, the subnormal range, FLT_MAX,
// infinities, NaN and signed zeros. Expected values follow from the definition
// ulp(y) = 2^(max(floor(log2|y|), -126) - 23), written beside each check.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#include "osvs/oracle/ulp.h"

namespace osvs::oracle {
namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(UlpOf, PowersOfTwoStartTheirBinade) {
  EXPECT_EQ(ulp_of(1.0), 0x1p-23);                       // floor(log2 1) = 0
  EXPECT_EQ(ulp_of(std::nextafter(1.0, 0.0)), 0x1p-24);  // just below 1: binade [1/2, 1)
  EXPECT_EQ(ulp_of(2.0), 0x1p-22);
  EXPECT_EQ(ulp_of(-2.0), 0x1p-22);  // |y|
  EXPECT_EQ(ulp_of(0x1.fffffep0), 0x1p-23);
}

TEST(UlpOf, SubnormalRangeIsUniform) {
  EXPECT_EQ(ulp_of(FLT_MIN), 0x1p-149);  // 2^-126: max(-126, -126) - 23
  EXPECT_EQ(ulp_of(std::nextafter(double{FLT_MIN}, 0.0)), 0x1p-149);
  EXPECT_EQ(ulp_of(0x1p-149), 0x1p-149);
  EXPECT_EQ(ulp_of(0x1p-160), 0x1p-149);  // below every float: still the subnormal ulp
  EXPECT_EQ(ulp_of(0.0), 0x1p-149);
  EXPECT_EQ(ulp_of(-0.0), 0x1p-149);
}

TEST(UlpOf, TopOfTheRange) {
  EXPECT_EQ(ulp_of(FLT_MAX), 0x1p104);  // floor(log2 FLT_MAX) = 127
  EXPECT_EQ(ulp_of(kInf), kInf);
  EXPECT_TRUE(std::isnan(ulp_of(kNaN)));
}

TEST(UlpDistance, NeighboursAroundOne) {
  EXPECT_EQ(ulp_distance(1.0f, 1.0), 0);
  EXPECT_EQ(ulp_distance(std::nextafter(1.0f, 2.0f), 1.0), 1);    // 2^-23 / 2^-23
  EXPECT_EQ(ulp_distance(std::nextafter(1.0f, 0.0f), 1.0), 0.5);  // 2^-24 / ulp(1) = 2^-23
  // The reference is not rounded first: 1 + 2^-24 is the midpoint of 1 and 1 + 2^-23.
  EXPECT_EQ(ulp_distance(1.0f, 1 + 0x1p-24), 0.5);
  EXPECT_EQ(ulp_distance(1.0f + 0x1p-23f, 1 + 0x1p-24), 0.5);
  EXPECT_EQ(ulp_distance(1.0f, 1 + 0x1p-30), 0x1p-7);  // 2^-30 / 2^-23
}

TEST(UlpDistance, SubnormalAndUnderflowedReferences) {
  EXPECT_EQ(ulp_distance(0.0f, 0x1p-150), 0.5);  // underflowed reference: ulp 2^-149
  EXPECT_EQ(ulp_distance(0x1p-149f, 0.0), 1);
  EXPECT_EQ(ulp_distance(3 * 0x1p-149f, 2.25 * 0x1p-149), 0.75);
  EXPECT_EQ(ulp_distance(FLT_MIN, FLT_MIN), 0);
  EXPECT_EQ(ulp_distance(0.0f, 0x1p-200), 0x1p-51);  // 2^-200 / 2^-149
}

TEST(UlpDistance, InfinitiesAndNaNMatchOnlyThemselves) {
  const float finf = std::numeric_limits<float>::infinity();
  const float fnan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(ulp_distance(finf, kInf), 0);
  EXPECT_EQ(ulp_distance(-finf, -kInf), 0);
  EXPECT_EQ(ulp_distance(-finf, kInf), kInf);
  EXPECT_EQ(ulp_distance(FLT_MAX, kInf), kInf);
  EXPECT_EQ(ulp_distance(finf, 1.0), kInf);
  EXPECT_EQ(ulp_distance(fnan, kNaN), 0);
  EXPECT_EQ(ulp_distance(fnan, 1.0), kInf);
  EXPECT_EQ(ulp_distance(1.0f, kNaN), kInf);
}

TEST(UlpDistance, SignedZerosAreTheSameReal) {
  EXPECT_EQ(ulp_distance(-0.0f, 0.0), 0);
  EXPECT_EQ(ulp_distance(0.0f, -0.0), 0);
  EXPECT_EQ(ulp_distance(-0.0f, 0x1p-149), 1);
}

TEST(UlpDistance, FltMax) {
  EXPECT_EQ(ulp_distance(std::nextafter(FLT_MAX, 0.0f), FLT_MAX), 1);  // spacing 2^104
}

}  // namespace
}  // namespace osvs::oracle
