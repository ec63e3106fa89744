// portable_logf, portable_log2f and portable_exp2f against double-precision references. The
// sampled tests run in CI; the EveryFloat tests enumerate every binary32 input of each domain (a
// proof for a univariate function) and back the constants in portable_log.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
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

struct Worst {
  double log = 0, log2 = 0, exp2 = 0;
};

/// The largest errors over every `stride`-th float bit pattern (stride 1: every float).
Worst worst_over(std::uint64_t stride) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Worst> worst(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      Worst& w = worst[t];
      for (std::uint64_t u = t * stride; u < (std::uint64_t{1} << 32); u += threads * stride) {
        const float x = bits_float(static_cast<std::uint32_t>(u));
        if (x > 0 && x < INFINITY) {
          w.log = std::max(w.log, ulp_error(std::log(double{x}), portable_logf(x)));
          w.log2 = std::max(w.log2, ulp_error(std::log2(double{x}), portable_log2f(x)));
        }
        if (x > -150.0f && x < 128.0f)
          w.exp2 = std::max(w.exp2, ulp_error(std::exp2(double{x}), portable_exp2f(x)));
      }
    });
  for (auto& th : pool) th.join();
  Worst all;
  for (const Worst& w : worst) {
    all.log = std::max(all.log, w.log);
    all.log2 = std::max(all.log2, w.log2);
    all.exp2 = std::max(all.exp2, w.exp2);
  }
  return all;
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
  const Worst w = worst_over(997);  // about 4.3e6 inputs of each function
  EXPECT_LT(w.log, PORTABLE_LOG_MAX_ULP);
  EXPECT_LT(w.log2, PORTABLE_LOG2_MAX_ULP);
  EXPECT_LT(w.exp2, PORTABLE_EXP2_MAX_ULP);
}

TEST(PortableLog, EveryFloatWithinTheStatedBounds) {
  const Worst w = worst_over(1);
  RecordProperty("max_ulp_log", std::to_string(w.log));
  RecordProperty("max_ulp_log2", std::to_string(w.log2));
  RecordProperty("max_ulp_exp2", std::to_string(w.exp2));
  EXPECT_LT(w.log, PORTABLE_LOG_MAX_ULP);
  EXPECT_LT(w.log2, PORTABLE_LOG2_MAX_ULP);
  EXPECT_LT(w.exp2, PORTABLE_EXP2_MAX_ULP);
  EXPECT_GT(std::min({w.log, w.log2, w.exp2}), 0.5) << "a bound far above the error is suspicious";
}

}  // namespace
}  // namespace osvs
