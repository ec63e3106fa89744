// portable_logf, portable_log2f and portable_exp2f against double-precision references. The
// sampled tests run in CI; the EveryFloat tests enumerate every binary32 input of each domain (a
// proof for a univariate function) and back the constants in portable_log.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <thread>
#include <vector>

#include "osvs/kernels/portable_log.h"

namespace osvs {
namespace {

/// |r - y| in ulps of the exact y (subnormal ulp 2^-149). The double reference is within 2^-52
/// relative of the function: below 2^-28 of a float ulp, negligible next to the margins.
double ulp_error(double y, float r) {
  if (y == 0) return r == 0 ? 0.0 : INFINITY;
  if (std::fabs(y) > static_cast<double>(FLT_MAX)) return std::isinf(r) ? 0.0 : INFINITY;
  const int e = std::max(std::ilogb(y), -126);
  return std::fabs(static_cast<double>(r) - y) / std::ldexp(1.0, e - 23);
}

/// The largest error of f against the double-precision ref over the float bit patterns u in
/// [first, last) with u - first a multiple of stride, on every core.
template <class F, class Ref>
double worst_over(std::uint64_t first, std::uint64_t last, std::uint64_t stride, F f, Ref ref) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<double> worst(threads, 0.0);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::uint64_t u = first + t * stride; u < last; u += threads * stride) {
        const float x = bits_float(static_cast<std::uint32_t>(u));
        worst[t] = std::max(worst[t], ulp_error(ref(double{x}), f(x)));
      }
    });
  for (auto& th : pool) th.join();
  return *std::max_element(worst.begin(), worst.end());
}

constexpr std::uint64_t kPositiveFirst = 0x00000001u;  // smallest subnormal
constexpr std::uint64_t kPositiveLast = 0x7f800000u;   // +inf
constexpr std::uint64_t kOne = 0x3f800000u;            // 1
constexpr std::uint64_t kTwoTo32 = 0x4f800000u;        // 2^32
constexpr std::uint64_t kMinusZero = 0x80000000u;
constexpr std::uint64_t kMinus150 = 0xc3160000u;  // -150: exp2 below it is 0 (SpecialValues)

double log_error(std::uint64_t first, std::uint64_t last, std::uint64_t stride) {
  return worst_over(first, last, stride, portable_logf, [](double x) { return std::log(x); });
}
double log2_error(std::uint64_t first, std::uint64_t last, std::uint64_t stride) {
  return worst_over(first, last, stride, portable_log2f, [](double x) { return std::log2(x); });
}
double exp2_error(std::uint64_t first, std::uint64_t last, std::uint64_t stride) {
  return worst_over(first, last, stride, portable_exp2f, [](double x) { return std::exp2(x); });
}

TEST(PortableLog, SpecialValuesAndExactPoints) {
  EXPECT_EQ(float_bits(portable_logf(1.0f)), float_bits(0.0f));
  EXPECT_EQ(float_bits(portable_log2f(1.0f)), float_bits(0.0f));
  for (int k = -149; k <= 127; ++k)
    EXPECT_EQ(portable_log2f(std::ldexp(1.0f, k)), static_cast<float>(k)) << k;
  EXPECT_EQ(portable_logf(0.0f), -INFINITY);
  EXPECT_EQ(portable_log2f(0.0f), -INFINITY);
  EXPECT_EQ(portable_logf(INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(portable_logf(-1.0f)));
  EXPECT_TRUE(std::isnan(portable_log2f(NAN)));
  EXPECT_EQ(float_bits(portable_exp2f(0.0f)), float_bits(1.0f));
  EXPECT_EQ(float_bits(portable_exp2f(-0.0f)), float_bits(1.0f));
  for (int k = -149; k <= 127; ++k)
    EXPECT_EQ(portable_exp2f(static_cast<float>(k)), std::ldexp(1.0f, k)) << k;
  EXPECT_EQ(portable_exp2f(-INFINITY), 0.0f);
  EXPECT_EQ(portable_exp2f(128.0f), INFINITY);
  EXPECT_TRUE(std::isnan(portable_exp2f(NAN)));
}

TEST(PortableLog, SampledFloatsWithinTheStatedBounds) {
  // Every 997th float of the whole domains: positive finite for log and log2, (-150, 128) for
  // exp2 (bit patterns of [0, 128) and of (-150, -0]).
  EXPECT_LT(log_error(kPositiveFirst, kPositiveLast, 997), PORTABLE_LOG_MAX_ULP);
  EXPECT_LT(log2_error(kPositiveFirst, kPositiveLast, 997), PORTABLE_LOG2_MAX_ULP);
  EXPECT_LT(exp2_error(0, 0x43000000u, 997), PORTABLE_EXP2_MAX_ULP);
  EXPECT_LT(exp2_error(kMinusZero, kMinus150, 997), PORTABLE_EXP2_MAX_ULP);
}

TEST(PortableLog, EveryFloatWithinTheStatedBounds) {
  // Every float the attention kernels can pass: log and log2 of d >= 1 (a sum of weights whose
  // largest is 1; 1 + e in [1, 2] for the merge) below 2^32, exp2 of small - big <= 0 above
  // -150. About 30 s on 2 cores.
  const double log = log_error(kOne, kTwoTo32, 1);
  const double log2 = log2_error(kOne, kTwoTo32, 1);
  const double exp2 = exp2_error(kMinusZero, kMinus150, 1);
  RecordProperty("max_ulp_log", std::to_string(log));
  RecordProperty("max_ulp_log2", std::to_string(log2));
  RecordProperty("max_ulp_exp2", std::to_string(exp2));
  std::cout << "[ osvs     ] max ulp: log " << log << ", log2 " << log2 << ", exp2 " << exp2
            << "\n";
  EXPECT_LT(log, PORTABLE_LOG_MAX_ULP);
  EXPECT_LT(log2, PORTABLE_LOG2_MAX_ULP);
  EXPECT_LT(exp2, PORTABLE_EXP2_MAX_ULP);
  EXPECT_GT(std::min({log, log2, exp2}), 0.5) << "a bound far above the error is suspicious";
}

}  // namespace
}  // namespace osvs
