// The softmax and log-softmax backward references: exact values on rows whose answer is known,
// the conventions of masked rows and special values, ties of bf16 rounded to even, and random
// rows against an independent evaluation (Boost.Multiprecision at 100 decimal digits): each
// output the nearest f32 to it, its double within 2^-53 relative and its binade the exact one.
#include <gtest/gtest.h>

#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "osvs/oracle/softmax_backward_reference.h"

namespace osvs::oracle {
namespace {

using Big = boost::multiprecision::mpfr_float_100;

std::vector<float> rounded(const std::vector<ExactElement>& dx) {
  std::vector<float> out;
  for (const ExactElement& e : dx) out.push_back(e.rounded);
  return out;
}

TEST(SoftmaxBackwardReference, ExactOnSmallRows) {
  EXPECT_EQ(rounded(softmax_backward_reference(std::vector<float>{0.25f, 0.75f},
                                               std::vector<float>{1, 2}, DType::F32)),
            (std::vector<float>{-0.1875f, 0.1875f}));
  // dy_i - s cancels exactly: dx = 0, binade of zero.
  const auto zero = softmax_backward_reference(std::vector<float>{0.5f, 0.5f},
                                               std::vector<float>{3, 3}, DType::F32);
  EXPECT_EQ(zero[0].rounded, 0.0f);
  EXPECT_EQ(zero[0].binade, kZeroBinade);
  EXPECT_EQ(rounded(log_softmax_backward_reference(std::vector<float>{0, 0},
                                                   std::vector<float>{1, 2}, DType::F32)),
            (std::vector<float>{-2, -1}));
}

TEST(SoftmaxBackwardReference, MaskedRows) {
  // y all 0: dx 0; z all -inf: exp(z) = 0, dx = dy.
  EXPECT_EQ(rounded(softmax_backward_reference(std::vector<float>{0, 0, 0},
                                               std::vector<float>{1, -2, 0.5f}, DType::F32)),
            (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(rounded(log_softmax_backward_reference(std::vector<float>{-INFINITY, -INFINITY},
                                                   std::vector<float>{1.5f, -3}, DType::F32)),
            (std::vector<float>{1.5f, -3}));
  // One masked element of a log-softmax row: dx_0 = dy_0 exactly, dx_1 = 1 - exp(0) 6.
  EXPECT_EQ(rounded(log_softmax_backward_reference(std::vector<float>{-INFINITY, 0},
                                                   std::vector<float>{5, 1}, DType::F32)),
            (std::vector<float>{5, -5}));
}

TEST(SoftmaxBackwardReference, SpecialValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // A NaN dy makes the row term NaN, and every dx of a softmax backward row.
  for (const ExactElement& e : softmax_backward_reference(std::vector<float>{0.5f, 0.5f},
                                                          std::vector<float>{nan, 1}, DType::F32))
    EXPECT_TRUE(std::isnan(e.rounded));
  // A NaN z poisons its own element only; +inf z with S > 0 gives -inf.
  const auto log = log_softmax_backward_reference(std::vector<float>{nan, INFINITY, -1},
                                                  std::vector<float>{1, 1, 1}, DType::F32);
  EXPECT_TRUE(std::isnan(log[0].rounded));
  EXPECT_EQ(log[1].rounded, -INFINITY);
  EXPECT_EQ(log[2].rounded, static_cast<float>(1 - std::exp(-1.0) * 3));
}

// A log-probability so negative that exp(z) S is far below dy's last bit but still a number
// MPFR holds (exp(-1e18) is about 2^(-1.44e18), above its 2^(-2^62)): dx = dy - tiny lies just
// below dy = 1, a power of two (found by the registered fuzzer: Ziv never decided it). It rounds
// to 1 in every type and in double, and its binade is -1.
TEST(SoftmaxBackwardReference, ATinyTermBelowAPowerOfTwo) {
  for (DType t : {DType::F32, DType::BF16, DType::F16}) {
    const auto dx =
        log_softmax_backward_reference(std::vector<float>{-1e18f, 0}, std::vector<float>{1, 1}, t);
    EXPECT_EQ(dx[0].rounded, 1.0f) << to_string(t);
    EXPECT_EQ(dx[0].value, 1.0) << to_string(t);
    EXPECT_EQ(dx[0].binade, -1) << to_string(t);
  }
}

TEST(SoftmaxBackwardReference, Bf16TiesToEven) {
  // dx_0 = (dy_0 - dy_1) / 4 = 2^-2 (1 + 2^-8): halfway between 2^-2 and 2^-2 + 2^-9 in bf16.
  const auto dx = softmax_backward_reference(std::vector<float>{0.5f, 0.5f},
                                             std::vector<float>{1 + 0x1p-8f, 0}, DType::BF16);
  EXPECT_EQ(dx[0].rounded, 0.25f);
  EXPECT_EQ(dx[1].rounded, -0.25f);
  EXPECT_EQ(dx[0].value, 0x1p-2 + 0x1p-10);
  // 2^-2 (1 + 3 2^-8): halfway between 2^-2 + 2^-9 (odd) and 2^-2 + 2^-8 (even).
  const auto up = softmax_backward_reference(std::vector<float>{0.5f, 0.5f},
                                             std::vector<float>{1 + 0x3p-8f, 0}, DType::BF16);
  EXPECT_EQ(up[0].rounded, 0x1p-2f + 0x1p-8f);
}

/// Element i of the backward of (a, dy) at 100 digits.
Big independent(bool log, const std::vector<float>& a, const std::vector<float>& dy,
                std::size_t i) {
  Big row = 0;
  for (std::size_t j = 0; j < a.size(); ++j) row += log ? Big(dy[j]) : Big(a[j]) * Big(dy[j]);
  return log ? Big(dy[i]) - exp(Big(a[i])) * row : Big(a[i]) * (Big(dy[i]) - row);
}

TEST(SoftmaxBackwardReference, NearestFloatOnRandomRows) {
  std::mt19937 rng(20261203);
  std::uniform_int_distribution<int> len(1, 24), small(-6, 6);
  std::uniform_real_distribution<float> unit(0, 1);
  for (int trial = 0; trial < 400; ++trial) {
    const bool log = trial % 2 == 1;
    const auto n = static_cast<std::size_t>(len(rng));
    std::vector<float> a(n), dy(n);
    const float offset = trial % 3 == 0 ? 7.0f : 0.0f;  // dy_i - s cancels
    for (std::size_t j = 0; j < n; ++j) {
      a[j] = log ? -4 * unit(rng) : unit(rng) / static_cast<float>(n);
      dy[j] = offset + static_cast<float>(small(rng)) * 0.125f + unit(rng) * 0x1p-10f;
    }
    const auto dx = log ? log_softmax_backward_reference(a, dy, DType::F32)
                        : softmax_backward_reference(a, dy, DType::F32);
    for (std::size_t i = 0; i < n; ++i) {
      const Big x = independent(log, a, dy, i);
      const float r = dx[i].rounded;
      const Big err = abs(Big(r) - x);
      EXPECT_LE(err, abs(Big(std::nextafter(r, INFINITY)) - x)) << trial << " " << i;
      EXPECT_LE(err, abs(Big(std::nextafter(r, -INFINITY)) - x)) << trial << " " << i;
      if (x != 0) {
        EXPECT_LE(abs(Big(dx[i].value) - x), abs(x) * Big(0x1p-53)) << trial << " " << i;
        EXPECT_EQ(dx[i].binade, ilogb(x)) << trial << " " << i;
      }
    }
  }
}

}  // namespace
}  // namespace osvs::oracle
