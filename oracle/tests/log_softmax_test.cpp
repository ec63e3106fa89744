// The log-softmax reference against MPFR at 100 decimal digits: within kReferenceRelErr (plus
// the stated n 2^-1074) on peaked rows (the dominant element's output is a tiny negative
// number), ties, masked elements, wide and normal rows.
#include <gtest/gtest.h>

#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "osvs/oracle/log_softmax.h"

namespace osvs::oracle {
namespace {

using Big = boost::multiprecision::mpfr_float_100;

std::vector<Big> exact_log_softmax(const std::vector<float>& x) {
  float m = -INFINITY;
  for (float v : x) m = std::fmax(m, v);
  Big s = 0;
  for (float v : x)
    if (v != -INFINITY) s += exp(Big(v) - Big(m));
  const Big L = log(s);
  std::vector<Big> out;
  for (float v : x) out.push_back(v == -INFINITY ? Big(-INFINITY) : Big(v) - Big(m) - L);
  return out;
}

void expect_within_bound(const std::vector<float>& x) {
  const auto ref = log_softmax_reference(x.data(), static_cast<std::int64_t>(x.size()));
  const auto exact = exact_log_softmax(x);
  const double absolute = static_cast<double>(x.size()) * 0x1p-1074;
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (std::isinf(ref[j])) {
      EXPECT_TRUE(x[j] == -INFINITY) << j;
      continue;
    }
    const Big err = abs(Big(ref[j]) - exact[j]);
    const Big allowed = kReferenceRelErr * abs(exact[j]) + absolute;
    EXPECT_LE(err, allowed) << "element " << j << " of " << x.size() << ": reference " << ref[j]
                            << ", exact " << exact[j].str(25);
  }
}

TEST(LogSoftmaxReference, PeakedRowsKeepTheDominantElementsTinyOutput) {
  // exp(-40) and exp(-700) below the maximum: the dominant output is -e^-40, -e^-700 (not 0).
  expect_within_bound({0.0f, -40.0f});
  expect_within_bound({0.0f, -700.0f, -40.5f, -60.25f});
  expect_within_bound({100.0f, -100.0f});
}

TEST(LogSoftmaxReference, TiesMaskedElementsAndLargeMagnitudes) {
  expect_within_bound({3.0f, 3.0f, 3.0f, -INFINITY, 1.0f});
  expect_within_bound({-INFINITY, 0x1.42727p+9f, 0x1.47c6eep+9f, 0x1.42727p+9f});
  expect_within_bound({std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                       -std::numeric_limits<float>::max()});
  expect_within_bound({0x1p-140f, -0x1p-149f, 0.0f});
}

TEST(LogSoftmaxReference, RandomRows) {
  std::mt19937 rng(20261130);
  for (double sigma : {1.0, 10.0, 100.0}) {
    std::normal_distribution<float> normal(0.0f, static_cast<float>(sigma));
    for (int n : {1, 2, 7, 33, 257}) {
      std::vector<float> x(static_cast<std::size_t>(n));
      for (float& v : x) v = normal(rng);
      expect_within_bound(x);
    }
  }
}

TEST(LogSoftmaxReference, RefusesRowsThatAreNotFinite) {
  const float nan_row[] = {1.0f, std::nanf("")};
  EXPECT_THROW(log_softmax_reference(nan_row, 2), std::invalid_argument);
  const float masked[] = {-INFINITY, -INFINITY};
  EXPECT_THROW(log_softmax_reference(masked, 2), std::invalid_argument);
}

}  // namespace
}  // namespace osvs::oracle
