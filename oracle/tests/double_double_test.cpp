// The reference's double-double rung: its exp within its certified bound against MPFR, and its
// decisions the MPFR path's.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "double_double_decide.h"
#include "exp_double_double.h"
#include "osvs/oracle/reference.h"
#include "reference_common.h"

namespace osvs::oracle {
namespace {

/// |E - e^(x - m)| / e^(x - m) at 300 bits.
double relative_error(float x, float m, detail::DoubleDouble e) {
  mpfr_t exact, got;
  mpfr_inits2(300, exact, got, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_flt(exact, x, MPFR_RNDN);
  mpfr_sub_d(exact, exact, static_cast<double>(m), MPFR_RNDN);  // exact at 300 bits
  mpfr_exp(exact, exact, MPFR_RNDN);
  mpfr_set_d(got, e.h, MPFR_RNDN);
  mpfr_add_d(got, got, e.l, MPFR_RNDN);  // exact at 300 bits
  mpfr_sub(got, got, exact, MPFR_RNDN);
  mpfr_div(got, got, exact, MPFR_RNDN);
  const double r = std::fabs(mpfr_get_d(got, MPFR_RNDN));
  mpfr_clears(exact, got, static_cast<mpfr_ptr>(nullptr));
  return r;
}

// Gaps over the whole range the rung uses (down to -kNegligibleGap), next to the argument
// reduction's switch points (multiples of ln2 / 64) and at 0, with maxima of many magnitudes.
TEST(DoubleDouble, ExpGapIsWithinItsBound) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> gap(-128.0, 0.0);
  std::uniform_real_distribution<float> maximum(-100.0f, 100.0f);
  std::vector<std::pair<float, float>> cases = {
      {0.0f, 0.0f}, {1.0f, 1.0f}, {-128.0f, 0.0f}, {FLT_MAX, FLT_MAX}, {0x1p-149f, 0.0f}};
  for (int i = 0; i < 200000; ++i) {
    const float m = i % 3 ? maximum(rng) : 0.0f;
    cases.push_back({static_cast<float>(m + gap(rng)), m});
  }
  for (int k = -11800; k <= 0; k += 7) {  // gaps next to k ln2 / 64
    const auto x = static_cast<float>(k * 0.693147180559945309 / 64);
    for (float v : {std::nextafter(x, -INFINITY), x, std::nextafter(x, INFINITY)})
      if (v <= 0 && v >= -128) cases.push_back({v, 0.0f});
  }
  double worst = 0;
  for (const auto& [x, m] : cases) {
    if (static_cast<double>(x) - static_cast<double>(m) < -kNegligibleGap || x > m) continue;
    detail::DoubleDouble e;
    ASSERT_TRUE(detail::exp_gap_dd(x, m, &e)) << x << " " << m;
    const double err = relative_error(x, m, e);
    worst = std::max(worst, err);
    ASSERT_LE(err, detail::kExpGapDdRelErr) << "x " << x << " m " << m;
  }
  std::printf("exp_gap_dd: worst relative error 2^%.1f over %zu gaps (bound 2^-96)\n",
              std::log2(worst), cases.size());
}

/// Rows of several shapes, every non-negligible element asked of the rung: what it decides must
/// be the MPFR path's decision, and it must decide nearly everything.
TEST(DoubleDouble, DecidesWhatMpfrDecides) {
  std::mt19937 rng(9);
  std::normal_distribution<float> n10(0, 10);
  std::uniform_real_distribution<float> deep(-110, 0);
  std::uniform_int_distribution<int> few(-3, 3);
  std::int64_t asked = 0, decided = 0;
  for (int kind = 0; kind < 4; ++kind)
    for (std::int64_t n : {1, 7, 1000, 3000}) {
      std::vector<float> x(static_cast<std::size_t>(n));
      for (float& v : x)
        v = kind == 0 ? n10(rng) : kind == 1 ? deep(rng) : kind == 2 ? float(few(rng)) : 0.5f;
      const RowReference exact = reference_row_mpfr(x.data(), n);
      std::vector<std::int64_t> which;
      for (std::int64_t j = 0; j < n; ++j)
        if (!detail::negligible(x[static_cast<std::size_t>(j)], exact.m)) which.push_back(j);
      std::vector<float> rounded(x.size(), -1.0f);
      std::vector<int> binade(x.size(), 999);
      const auto max_binade = detail::binade_of_maximum(detail::maximum_ties(x.data(), n, exact.m));
      const std::vector<std::int64_t> left =
          detail::double_double_decide(x.data(), n, exact.m, which, max_binade, rounded, binade);
      asked += std::ssize(which);
      decided += std::ssize(which) - std::ssize(left);
      std::size_t l = 0;
      for (std::int64_t j : which) {
        if (l < left.size() && left[l] == j) {
          ++l;
          continue;
        }
        const auto k = static_cast<std::size_t>(j);
        ASSERT_EQ(std::bit_cast<std::uint32_t>(rounded[k]),
                  std::bit_cast<std::uint32_t>(exact.y_rounded[k]))
            << "kind " << kind << " n " << n << " element " << j;
        ASSERT_EQ(binade[k], exact.y_binade[k])
            << "kind " << kind << " n " << n << " element " << j;
      }
    }
  std::printf("double-double rung: %lld of %lld asked elements decided\n",
              static_cast<long long>(decided), static_cast<long long>(asked));
  EXPECT_GE(decided, asked * 99 / 100);
}

}  // namespace
}  // namespace osvs::oracle
