// portable_expf's accuracy constant is checked by enumerating every binary32 input: for a
// univariate function of one float this is a proof, not a sample.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <thread>
#include <vector>

#include "osvs/kernels/portable_exp.h"

namespace osvs {
namespace {

/// Error of r against exp(x) in ulps of the exact value (subnormal ulp 2^-149). The double
/// reference is within 2^-52 relative of exp(x), i.e. below 2^-28 of a float ulp: negligible next
/// to the margin between the measured maximum and PORTABLE_EXP_MAX_ULP.
double ulp_error(float x, float r) {
  const double y = std::exp(static_cast<double>(x));
  if (y > static_cast<double>(FLT_MAX)) return std::isinf(r) ? 0.0 : INFINITY;
  const int e = std::max(std::ilogb(y), -126);
  return std::fabs(static_cast<double>(r) - y) / std::ldexp(1.0, e - 23);
}

TEST(PortableExp, SpecialValues) {
  EXPECT_EQ(float_bits(portable_expf(0.0f)), float_bits(1.0f));
  EXPECT_EQ(float_bits(portable_expf(-0.0f)), float_bits(1.0f));
  EXPECT_EQ(portable_expf(-INFINITY), 0.0f);
  EXPECT_TRUE(std::isinf(portable_expf(INFINITY)));
  EXPECT_TRUE(std::isnan(portable_expf(NAN)));
  EXPECT_TRUE(std::isinf(portable_expf(89.0f)));
  EXPECT_EQ(portable_expf(-200.0f), 0.0f);
}

TEST(PortableExp, EveryFloatWithinTheStatedBound) {
  // Inputs outside [-105, 90] return 0 or +inf, within 0.25 ulp of exp: covered by SpecialValues.
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<double> worst(threads, 0.0);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::uint64_t u = t; u < (std::uint64_t{1} << 32); u += threads) {
        const float x = bits_float(static_cast<std::uint32_t>(u));
        if (!(x > -105.0f && x < 90.0f)) continue;
        worst[t] = std::max(worst[t], ulp_error(x, portable_expf(x)));
      }
    });
  for (auto& th : pool) th.join();
  double w = 0;
  for (double v : worst) w = std::max(w, v);
  RecordProperty("max_ulp", std::to_string(w));
  EXPECT_LT(w, PORTABLE_EXP_MAX_ULP);
  EXPECT_GT(w, 0.5) << "a bound far above the real error would be suspicious";
}

}  // namespace
}  // namespace osvs
