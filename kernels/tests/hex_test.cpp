// The texts of numbers in messages (hex.h): the expected strings are derived by hand from the bit
// patterns (0x3f7fffff = 1 - 2^-24 = 0.999999940395..., 0x3dcccccd = 0.100000001490...).
#include "osvs/kernels/hex.h"

#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>

namespace osvs {
namespace {

float float_of(std::uint32_t bits) {
  return std::bit_cast<float>(bits);
}

double double_of(std::uint64_t bits) {
  return std::bit_cast<double>(bits);
}

TEST(Hex, IsC99HexFloat) {
  EXPECT_EQ(hex(1.0), "0x1p+0");
  EXPECT_EQ(hex(12.0), "0x1.8p+3");
  EXPECT_EQ(hex(-0.0), "-0x0p+0");
  EXPECT_EQ(hex(0x1p-149f), "0x1p-149");
  EXPECT_EQ(hex(-INFINITY), "-inf");
  EXPECT_EQ(hex(float_of(0xffc00000u)), "-nan");
}

TEST(Readable, FiniteValuesAreHexThenNineDigits) {
  EXPECT_EQ(readable(1.0f), "0x1p+0 (1)");
  EXPECT_EQ(readable(12.0), "0x1.8p+3 (12)");
  EXPECT_EQ(readable(float_of(0x3f7fffffu)), "0x1.fffffep-1 (0.99999994)");
  EXPECT_EQ(readable(0.1f), "0x1.99999ap-4 (0.100000001)");
  EXPECT_EQ(readable(-2.5f), "-0x1.4p+1 (-2.5)");
  EXPECT_EQ(readable(FLT_MAX), "0x1.fffffep+127 (3.40282347e+38)");
  EXPECT_EQ(readable(1.0 / 3), "0x1.5555555555555p-2 (0.333333333)");  // a double: hex exact
}

TEST(Readable, ZerosKeepTheirSign) {
  EXPECT_EQ(readable(0.0f), "0x0p+0 (0)");
  EXPECT_EQ(readable(-0.0f), "-0x0p+0 (-0)");
}

TEST(Readable, Subnormals) {
  EXPECT_EQ(readable(0x1p-149f), "0x1p-149 (1.40129846e-45)");  // a normal double
  EXPECT_EQ(readable(float_of(0x007fffffu)), "0x1.fffffcp-127 (1.17549421e-38)");
  EXPECT_EQ(readable(0x1p-1074), "0x0.0000000000001p-1022 (4.94065646e-324)");  // glibc's %a
}

TEST(Readable, InfinitiesHaveNoDecimal) {
  EXPECT_EQ(readable(INFINITY), "inf");
  EXPECT_EQ(readable(-INFINITY), "-inf");
  EXPECT_EQ(readable(-HUGE_VAL), "-inf");
}

TEST(Readable, NansShowTheirBits) {
  EXPECT_EQ(readable(float_of(0x7fc00000u)), "nan (bits 0x7fc00000)");
  EXPECT_EQ(readable(float_of(0xffc00000u)), "-nan (bits 0xffc00000)");
  EXPECT_EQ(readable(float_of(0x7fc00001u)), "nan (bits 0x7fc00001)");  // payload kept
  EXPECT_EQ(readable(float_of(0x7fa5a5a5u)), "nan (bits 0x7fa5a5a5)");  // signalling, as it is
  EXPECT_EQ(readable(float_of(0x7fffffffu)), "nan (bits 0x7fffffff)");
  EXPECT_EQ(readable(std::nan("")), "nan (bits 0x7fc00000)");  // a float NaN's double
  EXPECT_EQ(readable(double_of(0x7ff8000000000001ull)), "nan (bits 0x7ff8000000000001)");
  EXPECT_EQ(readable(double_of(0xfff8000020000000ull)), "-nan (bits 0xffc00001)");
}

TEST(Digits9, NineSignificantDigits) {
  EXPECT_EQ(digits9(0.5), "0.5");
  EXPECT_EQ(digits9(1.0), "1");
  EXPECT_EQ(digits9(8388608.0), "8388608");
  EXPECT_EQ(digits9(2.0 / 3), "0.666666667");
  EXPECT_EQ(digits9(0x1p-24), "5.96046448e-08");
  EXPECT_EQ(digits9(123456789012.0), "1.23456789e+11");
  EXPECT_EQ(digits9(1e-10), "1e-10");
  EXPECT_EQ(digits9(-0.0), "-0");
}

TEST(Digits9, Specials) {
  EXPECT_EQ(digits9(INFINITY), "inf");
  EXPECT_EQ(digits9(-INFINITY), "-inf");
  EXPECT_EQ(digits9(std::nan("")), "nan");
  EXPECT_EQ(digits9(-std::nan("")), "-nan");
}

}  // namespace
}  // namespace osvs
