// The row reduction references (logsumexp, layer norm, RMS norm): exact values of rows whose
// answer is derived by hand, ties of bf16 rounded to even, the conventions of NaN, infinities and
// degenerate rows, and random rows against an independent evaluation: plain MPFR at 3000 bits,
// straight from each formula (no error analysis, no Ziv), rounded by round_to_type.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "mpfr_value.h"
#include "osvs/oracle/row_reduction_reference.h"

namespace osvs::oracle {
namespace {

using detail::MpValue;
using detail::round_to_type;

constexpr mpfr_prec_t kIndependentBits = 3000;
constexpr DType kTypes[] = {DType::F32, DType::BF16, DType::F16};
const float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<float> rounded(const std::vector<ExactElement>& y) {
  std::vector<float> out;
  for (const ExactElement& e : y) out.push_back(e.rounded);
  return out;
}

/// e is a's element: a's rounding to `out`, to double, and a's binade (a: the exact value, or an
/// approximation of it within 2^-2990 relative).
void expect_element(const ExactElement& e, mpfr_srcptr a, DType out, const std::string& where) {
  if (mpfr_nan_p(a)) {
    EXPECT_TRUE(std::isnan(e.rounded)) << where;
    EXPECT_TRUE(std::isnan(e.value)) << where;
    return;
  }
  const float r = round_to_type(a, out);
  EXPECT_EQ(e.rounded, r) << where << " " << to_string(out);
  EXPECT_EQ(std::signbit(e.rounded), std::signbit(r)) << where;
  EXPECT_EQ(e.value, mpfr_get_d(a, MPFR_RNDN)) << where;
  EXPECT_EQ(e.binade, mpfr_regular_p(a) ? static_cast<int>(mpfr_get_exp(a) - 1) : kZeroBinade)
      << where;
}

/// An exact dyadic expected value.
void expect_exact(const ExactElement& e, double v, DType out, const std::string& where) {
  MpValue a(64);
  mpfr_set_d(a.get(), v, MPFR_RNDN);
  expect_element(e, a.get(), out, where);
}

void expect_all_nan(const std::vector<ExactElement>& y, const std::string& where) {
  for (const ExactElement& e : y) {
    EXPECT_TRUE(std::isnan(e.rounded)) << where;
    EXPECT_EQ(e.binade, kZeroBinade) << where;
  }
}

// ---- The independent evaluations: MPFR at 3000 bits, straight from the formulas ----

/// lse = m + log(sum_j exp(x_j - m)), m the maximum (finite or -inf rows).
MpValue independent_logsumexp(const std::vector<float>& x) {
  float m = -INFINITY;
  for (float v : x) m = std::max(m, v);
  MpValue S(kIndependentBits), t(kIndependentBits), lse(kIndependentBits);
  if (m == -INFINITY) {
    mpfr_set_inf(lse.get(), -1);
    return lse;
  }
  mpfr_set_zero(S.get(), 1);
  for (float v : x) {
    mpfr_set_flt(t.get(), v, MPFR_RNDN);
    mpfr_sub_d(t.get(), t.get(), m, MPFR_RNDN);
    mpfr_exp(t.get(), t.get(), MPFR_RNDN);
    mpfr_add(S.get(), S.get(), t.get(), MPFR_RNDN);
  }
  mpfr_log(lse.get(), S.get(), MPFR_RNDN);
  mpfr_add_d(lse.get(), lse.get(), m, MPFR_RNDN);
  return lse;
}

/// The mean sum_j x_j / n and the variance sum_j (x_j - mean)^2 / (n - correction), two passes.
std::pair<MpValue, MpValue> independent_mean_var(const std::vector<float>& x, int correction) {
  const double n = static_cast<double>(x.size());
  MpValue mu(kIndependentBits), var(kIndependentBits), t(kIndependentBits);
  mpfr_set_zero(mu.get(), 1);
  for (float v : x) mpfr_add_d(mu.get(), mu.get(), v, MPFR_RNDN);
  mpfr_div_d(mu.get(), mu.get(), n, MPFR_RNDN);
  mpfr_set_zero(var.get(), 1);
  for (float v : x) {
    mpfr_d_sub(t.get(), v, mu.get(), MPFR_RNDN);
    mpfr_sqr(t.get(), t.get(), MPFR_RNDN);
    mpfr_add(var.get(), var.get(), t.get(), MPFR_RNDN);
  }
  mpfr_div_d(var.get(), var.get(), n - correction, MPFR_RNDN);
  return {std::move(mu), std::move(var)};
}

/// y_i = (x_i - mu) / sqrt(var + eps) w_i + b_i.
std::vector<MpValue> independent_layer_norm(const std::vector<float>& x,
                                            const std::vector<float>& w,
                                            const std::vector<float>& b, float eps) {
  auto [mu, var] = independent_mean_var(x, 0);
  mpfr_add_d(var.get(), var.get(), eps, MPFR_RNDN);
  mpfr_sqrt(var.get(), var.get(), MPFR_RNDN);  // the denominator
  std::vector<MpValue> y;
  for (std::size_t i = 0; i < x.size(); ++i) {
    y.emplace_back(kIndependentBits);
    mpfr_d_sub(y.back().get(), x[i], mu.get(), MPFR_RNDN);
    mpfr_div(y.back().get(), y.back().get(), var.get(), MPFR_RNDN);
    mpfr_mul_d(y.back().get(), y.back().get(), w[i], MPFR_RNDN);
    mpfr_add_d(y.back().get(), y.back().get(), b[i], MPFR_RNDN);
  }
  return y;
}

/// y_i = x_i / sqrt(sum_j x_j^2 / n + eps) w_i.
std::vector<MpValue> independent_rms_norm(const std::vector<float>& x, const std::vector<float>& w,
                                          float eps) {
  MpValue ms(kIndependentBits), t(kIndependentBits);
  mpfr_set_zero(ms.get(), 1);
  for (float v : x) {
    mpfr_set_flt(t.get(), v, MPFR_RNDN);
    mpfr_sqr(t.get(), t.get(), MPFR_RNDN);
    mpfr_add(ms.get(), ms.get(), t.get(), MPFR_RNDN);
  }
  mpfr_div_d(ms.get(), ms.get(), static_cast<double>(x.size()), MPFR_RNDN);
  mpfr_add_d(ms.get(), ms.get(), eps, MPFR_RNDN);
  mpfr_sqrt(ms.get(), ms.get(), MPFR_RNDN);
  std::vector<MpValue> y;
  for (std::size_t i = 0; i < x.size(); ++i) {
    y.emplace_back(kIndependentBits);
    mpfr_set_flt(y.back().get(), x[i], MPFR_RNDN);
    mpfr_div(y.back().get(), y.back().get(), ms.get(), MPFR_RNDN);
    mpfr_mul_d(y.back().get(), y.back().get(), w[i], MPFR_RNDN);
  }
  return y;
}

// ---- Exact values derived by hand ----

TEST(RowReductionReference, LayerNormExactRows) {
  // x = [0, 2], eps = 0: sum = 2, A = [2 0 - 2, 2 2 - 2] = [-2, 2], D = 2 (0 + 4) - 2^2 = 4,
  // sqrt(D) = 2: q = [-1, 1], and with w = 1, b = 0, y = [-1, 1] (binade 0).
  for (DType t : kTypes) {
    const auto y = layer_norm_reference(std::vector<float>{0, 2}, std::vector<float>{1, 1},
                                        std::vector<float>{0, 0}, 0.0f, t);
    expect_exact(y[0], -1, t, "[0, 2] y0");
    expect_exact(y[1], 1, t, "[0, 2] y1");
    EXPECT_EQ(y[0].binade, 0);
  }
  // x = [1, 2, 3, 6], eps = 0: sum = 12, A = [4 - 12, 8 - 12, 12 - 12, 24 - 12] = [-8, -4, 0, 12],
  // D = 4 (1 + 4 + 9 + 36) - 144 = 56, irrational sqrt: q = A / (2 sqrt(14)); y_2 = b_2 exactly,
  // y_3 = 12 / (2 sqrt 14) 2 + 0.5 = 12 / sqrt(14) + 0.5.
  const auto y =
      layer_norm_reference(std::vector<float>{1, 2, 3, 6}, std::vector<float>{1, 1, 1, 2},
                           std::vector<float>{0, 0, 0.375f, 0.5f}, 0.0f, DType::F32);
  expect_exact(y[2], 0.375, DType::F32, "A = 0: y = b");
  MpValue e(200);
  mpfr_set_ui(e.get(), 14, MPFR_RNDN);
  mpfr_rec_sqrt(e.get(), e.get(), MPFR_RNDN);
  mpfr_mul_ui(e.get(), e.get(), 12, MPFR_RNDN);
  mpfr_add_d(e.get(), e.get(), 0.5, MPFR_RNDN);
  expect_element(y[3], e.get(), DType::F32, "12 / sqrt(14) + 0.5");
  // A row of one element: A = 0, y = b whatever eps (> 0: D = eps > 0).
  expect_exact(layer_norm_reference(std::vector<float>{7}, std::vector<float>{3},
                                    std::vector<float>{-0.25f}, 1e-5f, DType::BF16)[0],
               -0.25, DType::BF16, "n = 1");
  // eps = 1e-5f with a constant row: D = eps n^2 > 0 and every A_i = 0: y = b.
  EXPECT_EQ(rounded(layer_norm_reference(std::vector<float>{4, 4, 4}, std::vector<float>{1, 2, 3},
                                         std::vector<float>{1, -2, 0.5f}, 1e-5f, DType::F32)),
            (std::vector<float>{1, -2, 0.5f}));
}

TEST(RowReductionReference, RmsNormExactRows) {
  // x = [1, 7], eps = 0: mean square (1 + 49) / 2 = 25, r = 1/5: with w = 5, y = x = [1, 7].
  for (DType t : kTypes) {
    const auto y = rms_norm_reference(std::vector<float>{1, 7}, std::vector<float>{5, 5}, 0.0f, t);
    expect_exact(y[0], 1, t, "y0");
    expect_exact(y[1], 7, t, "y1");
    EXPECT_EQ(y[1].binade, 2);
  }
  // With w = 1: y = [1/5, 7/5], rationals that are not dyadic; IEEE division is correctly
  // rounded, so their f32 and double roundings are 1.0f / 5 and 1.0 / 5.
  const auto fifths =
      rms_norm_reference(std::vector<float>{1, 7}, std::vector<float>{1, 1}, 0.0f, DType::F32);
  EXPECT_EQ(fifths[0].rounded, 1.0f / 5);
  EXPECT_EQ(fifths[0].value, 1.0 / 5);
  EXPECT_EQ(fifths[0].binade, -3);  // 1/5 in [1/8, 1/4)
  EXPECT_EQ(fifths[1].rounded, 7.0f / 5);
  EXPECT_EQ(fifths[1].value, 7.0 / 5);
  EXPECT_EQ(fifths[1].binade, 0);
  // x = [3, 4], eps = 0: mean square 25 / 2, y = [3, 4] sqrt(2) / 5 (irrational).
  for (DType t : kTypes) {
    const auto y = rms_norm_reference(std::vector<float>{3, 4}, std::vector<float>{1, 1}, 0.0f, t);
    for (int i = 0; i < 2; ++i) {
      MpValue e(200);
      mpfr_sqrt_ui(e.get(), 2, MPFR_RNDN);
      mpfr_mul_ui(e.get(), e.get(), 3 + i, MPFR_RNDN);
      mpfr_div_ui(e.get(), e.get(), 5, MPFR_RNDN);
      expect_element(y[i], e.get(), t, "[3, 4] sqrt(2) / 5");
    }
  }
  // eps = 1.5 with x = [1, 1, 1, 1]: mean square 1 + 1.5 = 5/2, y = w sqrt(2/5); w = 0 gives 0.
  const auto y = rms_norm_reference(std::vector<float>{1, 1, 1, 1}, std::vector<float>{0, 2, 2, 2},
                                    1.5f, DType::F32);
  expect_exact(y[0], 0, DType::F32, "w = 0");
  MpValue e(200);
  mpfr_set_ui(e.get(), 2, MPFR_RNDN);
  mpfr_div_ui(e.get(), e.get(), 5, MPFR_RNDN);
  mpfr_sqrt(e.get(), e.get(), MPFR_RNDN);
  mpfr_mul_ui(e.get(), e.get(), 2, MPFR_RNDN);
  expect_element(y[1], e.get(), DType::F32, "2 sqrt(2/5)");
}

TEST(RowReductionReference, LogSumExpExactRows) {
  // One element: S = 1, lse = x exactly (a subnormal, a bf16 midpoint, a power of two).
  for (DType t : kTypes)
    for (float v : {0.0f, 1.0f, -2.0f, 3.25f, 1 + 0x1p-8f, 0x1p-140f, -1e30f}) {
      const ExactElement e = logsumexp_reference(std::vector<float>{v}, t);
      expect_exact(e, v, t, "[x]");
    }
  // [-inf, 5]: the -inf contributes exp(-inf) = 0: lse = 5.
  expect_exact(logsumexp_reference(std::vector<float>{-INFINITY, 5}, DType::BF16), 5, DType::BF16,
               "[-inf, 5]");
  // [0, 0]: log(2); [3, 3, 3, 3]: 3 + log(4) = 3 + 2 log(2); MPFR's log 2.
  for (DType t : kTypes) {
    MpValue ln2(300), e(300);
    mpfr_const_log2(ln2.get(), MPFR_RNDN);
    expect_element(logsumexp_reference(std::vector<float>{0, 0}, t), ln2.get(), t, "[0, 0]");
    mpfr_mul_2ui(e.get(), ln2.get(), 1, MPFR_RNDN);
    mpfr_add_ui(e.get(), e.get(), 3, MPFR_RNDN);
    expect_element(logsumexp_reference(std::vector<float>{3, 3, -INFINITY, 3, 3}, t), e.get(), t,
                   "[3, 3, -inf, 3, 3]");
  }
  // [m, m - 10^4]: lse = m + log1p(e^-10000), m + a positive below 2^-14000. m = 1 + 2^-8 is a
  // bf16 midpoint (between 1 and 1 + 2^-7): lse lies just above it and rounds up to 1 + 2^-7,
  // its double is m and its binade 0. m = -1: lse just above -1, |lse| < 1, binade -1.
  const ExactElement above =
      logsumexp_reference(std::vector<float>{1 + 0x1p-8f, -9999}, DType::BF16);
  EXPECT_EQ(above.rounded, 1 + 0x1p-7f);
  EXPECT_EQ(above.value, 1 + 0x1p-8);
  EXPECT_EQ(above.binade, 0);
  const ExactElement minus_one = logsumexp_reference(std::vector<float>{-1, -10001}, DType::F32);
  EXPECT_EQ(minus_one.rounded, -1.0f);
  EXPECT_EQ(minus_one.value, -1.0);
  EXPECT_EQ(minus_one.binade, -1);
  // [0, -200]: lse = log1p(e^-200) = e^-200 (1 - e^-200 / 2 + ...), about 2^-288.5: +0 in f32,
  // its double and binade those of e^-200 (e^-200 / 2 is far below double's relative ulp, and
  // e^-200 is no power of two).
  const ExactElement tiny = logsumexp_reference(std::vector<float>{0, -200}, DType::F32);
  MpValue e(300);
  mpfr_set_si(e.get(), -200, MPFR_RNDN);
  mpfr_exp(e.get(), e.get(), MPFR_RNDN);
  EXPECT_EQ(tiny.rounded, 0.0f);
  EXPECT_EQ(tiny.value, mpfr_get_d(e.get(), MPFR_RNDN));
  EXPECT_EQ(tiny.binade, mpfr_get_exp(e.get()) - 1);
  EXPECT_EQ(tiny.binade, -289);  // log2(e^-200) = -288.539...
  // [0, -1e30]: lse below 2^-(10^30): +0, and the convention's binade.
  const ExactElement far = logsumexp_reference(std::vector<float>{0, -1e30f}, DType::F32);
  EXPECT_EQ(far.rounded, 0.0f);
  EXPECT_FALSE(std::signbit(far.rounded));
  EXPECT_EQ(far.value, 0.0);
  EXPECT_EQ(far.binade, kZeroBinade);
}

// ---- Ties to even ----

TEST(RowReductionReference, Bf16MidpointsTiesToEven) {
  // rms: x = [1, 7], r = 1/5 (above); w_0 = 5 (1 + 2^-8) (exact in f32) gives y_0 = 1 + 2^-8,
  // halfway between bf16's 1 (even) and 1 + 2^-7 (odd): 1. w_0 = 5 (1 + 3 2^-8) gives
  // 1 + 3 2^-8, halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even): 1 + 2^-6.
  const auto down = rms_norm_reference(std::vector<float>{1, 7},
                                       std::vector<float>{5 * (1 + 0x1p-8f), 5}, 0.0f, DType::BF16);
  EXPECT_EQ(down[0].rounded, 1.0f);
  EXPECT_EQ(down[0].value, 1 + 0x1p-8);
  EXPECT_EQ(down[0].binade, 0);
  const auto up = rms_norm_reference(std::vector<float>{1, 7},
                                     std::vector<float>{5 * (1 + 0x3p-8f), 5}, 0.0f, DType::BF16);
  EXPECT_EQ(up[0].rounded, 1 + 0x1p-6f);
  EXPECT_EQ(up[0].value, 1 + 0x3p-8);
  // layer: x = [0, 2], eps = 3: D = 2 4 - 4 + 3 4 = 16, sqrt(D) = 4, q = [-2, 2] / 4 = [-1/2, 1/2];
  // w = [2 + 2^-7, 2 + 3 2^-7]: y = [-(1 + 2^-8), 1 + 3 2^-8]: bf16 [-1, 1 + 2^-6].
  const auto y =
      layer_norm_reference(std::vector<float>{0, 2}, std::vector<float>{2 + 0x1p-7f, 2 + 0x3p-7f},
                           std::vector<float>{0, 0}, 3.0f, DType::BF16);
  EXPECT_EQ(y[0].rounded, -1.0f);
  EXPECT_EQ(y[0].value, -(1 + 0x1p-8));
  EXPECT_EQ(y[1].rounded, 1 + 0x1p-6f);
  EXPECT_EQ(y[1].value, 1 + 0x3p-8);
  // The same ties in f16 (11 bits) are exact values: no rounding.
  const auto f16 =
      layer_norm_reference(std::vector<float>{0, 2}, std::vector<float>{2 + 0x1p-7f, 2 + 0x3p-7f},
                           std::vector<float>{0, 0}, 3.0f, DType::F16);
  EXPECT_EQ(f16[0].rounded, -(1 + 0x1p-8f));
  EXPECT_EQ(f16[1].rounded, 1 + 0x3p-8f);
}

// ---- Conventions ----

TEST(RowReductionReference, LogSumExpConventions) {
  EXPECT_EQ(logsumexp_reference(std::vector<float>{}, DType::F32).rounded, -INFINITY);
  EXPECT_TRUE(std::isnan(logsumexp_reference(std::vector<float>{1, kNaN}, DType::F32).rounded));
  EXPECT_TRUE(
      std::isnan(logsumexp_reference(std::vector<float>{INFINITY, kNaN}, DType::BF16).rounded));
  EXPECT_EQ(logsumexp_reference(std::vector<float>{INFINITY, 1}, DType::F16).rounded, INFINITY);
  EXPECT_EQ(logsumexp_reference(std::vector<float>{-INFINITY, INFINITY}, DType::F32).rounded,
            INFINITY);
  const ExactElement masked =
      logsumexp_reference(std::vector<float>{-INFINITY, -INFINITY}, DType::F32);
  EXPECT_EQ(masked.rounded, -INFINITY);
  EXPECT_EQ(masked.value, -INFINITY);
  EXPECT_EQ(masked.binade, kZeroBinade);
  // f16's largest finite value is 65504 and its overflow threshold 65520 (halfway to 65536):
  // 65504 + log 2 rounds to 65504, 65520 + log1p(e^-65520) (above the threshold) to +inf.
  EXPECT_EQ(logsumexp_reference(std::vector<float>{65504, 65504}, DType::F16).rounded, 65504.0f);
  EXPECT_EQ(logsumexp_reference(std::vector<float>{65520, 0}, DType::F16).rounded, INFINITY);
}

TEST(RowReductionReference, LayerNormConventions) {
  const std::vector<float> w{1, 1, 1}, b{0, 0, 0};
  expect_all_nan(layer_norm_reference(std::vector<float>{1, kNaN, 2}, w, b, 1e-5f, DType::F32),
                 "x NaN");
  expect_all_nan(layer_norm_reference(std::vector<float>{1, INFINITY, 2}, w, b, 1e-5f, DType::F32),
                 "x inf");
  expect_all_nan(layer_norm_reference(std::vector<float>{1, -INFINITY, 2}, w, b, 0, DType::BF16),
                 "x -inf");
  // D = 0: a constant row with eps = 0 (0 / 0); D < 0: eps = -1 past a variance of 0.
  expect_all_nan(layer_norm_reference(std::vector<float>{3, 3, 3}, w, b, 0, DType::F32), "D = 0");
  expect_all_nan(layer_norm_reference(std::vector<float>{3, 3, 3}, w, b, -1, DType::F32), "D < 0");
  expect_all_nan(layer_norm_reference(std::vector<float>{1, 2, 3}, w, b, kNaN, DType::F32),
                 "eps NaN");
  EXPECT_TRUE(layer_norm_reference({}, {}, {}, 0, DType::F32).empty());
  // x = [0, 1, 2]: A = [-3, 0, 3], q = [-1, 0, 1] sqrt(3/2) (D = 3 5 - 9 = 6, q = A / sqrt 6).
  // Non-finite w and b: the IEEE double of q w + b.
  const std::vector<float> x{0, 1, 2};
  const auto inf_w = layer_norm_reference(x, std::vector<float>{INFINITY, INFINITY, -INFINITY},
                                          std::vector<float>{0, 0, 1}, 0, DType::F32);
  EXPECT_EQ(inf_w[0].rounded, -INFINITY);     // q_0 < 0 times inf
  EXPECT_TRUE(std::isnan(inf_w[1].rounded));  // 0 * inf
  EXPECT_EQ(inf_w[2].rounded, -INFINITY);
  const auto inf_b =
      layer_norm_reference(x, std::vector<float>{1, 1, INFINITY},
                           std::vector<float>{INFINITY, kNaN, -INFINITY}, 0, DType::BF16);
  EXPECT_EQ(inf_b[0].rounded, INFINITY);
  EXPECT_TRUE(std::isnan(inf_b[1].rounded));
  EXPECT_TRUE(std::isnan(inf_b[2].rounded));  // inf - inf
  EXPECT_EQ(inf_b[0].binade, kZeroBinade);
  // eps = +inf: q = 0, y = b.
  EXPECT_EQ(rounded(layer_norm_reference(x, w, std::vector<float>{1, 2, 3}, INFINITY, DType::F32)),
            (std::vector<float>{1, 2, 3}));
  // The finite elements of a row with non-finite w elsewhere are unaffected: y_2 = sqrt(3/2).
  MpValue e(200);
  mpfr_set_d(e.get(), 1.5, MPFR_RNDN);
  mpfr_sqrt(e.get(), e.get(), MPFR_RNDN);
  const auto mixed = layer_norm_reference(x, std::vector<float>{INFINITY, 1, 1},
                                          std::vector<float>{0, 0, 0}, 0, DType::F32);
  expect_element(mixed[2], e.get(), DType::F32, "sqrt(3/2)");
}

TEST(RowReductionReference, RmsNormConventions) {
  const std::vector<float> w{1, -1};
  expect_all_nan(rms_norm_reference(std::vector<float>{kNaN, 1}, w, 0, DType::F32), "x NaN");
  expect_all_nan(rms_norm_reference(std::vector<float>{1, 2}, w, kNaN, DType::F32), "eps NaN");
  // An infinite x: the row has no finite mean square, every y_i NaN (as LayerNorm's row).
  expect_all_nan(rms_norm_reference(std::vector<float>{INFINITY, 1}, w, 0, DType::F32), "x inf");
  // D = 0: an all-zero row with eps = 0 (0 * inf), or eps = -1 cancelling x = [1].
  expect_all_nan(rms_norm_reference(std::vector<float>{0, 0}, w, 0, DType::F32), "D = 0");
  expect_all_nan(rms_norm_reference(std::vector<float>{1}, std::vector<float>{1}, -1, DType::F32),
                 "eps = -1");
  EXPECT_TRUE(rms_norm_reference({}, {}, 0, DType::F32).empty());
  // eps = +inf: r = 0, y = +-0.
  const auto zero = rms_norm_reference(std::vector<float>{2, 3}, w, INFINITY, DType::F32);
  EXPECT_EQ(zero[0].rounded, 0.0f);
  EXPECT_TRUE(std::signbit(zero[1].rounded));
  // Non-finite w: x = [0, 4] (r = 1 / sqrt(8)): y_0 = 0 inf = NaN, y_1 = 4 r = sqrt(2) exact.
  const auto y =
      rms_norm_reference(std::vector<float>{0, 4}, std::vector<float>{INFINITY, 1}, 0, DType::F32);
  EXPECT_TRUE(std::isnan(y[0].rounded));
  MpValue e(200);
  mpfr_sqrt_ui(e.get(), 2, MPFR_RNDN);
  expect_element(y[1], e.get(), DType::F32, "sqrt 2");
  const auto signs = rms_norm_reference(std::vector<float>{-3, 4},
                                        std::vector<float>{INFINITY, -INFINITY}, 0, DType::BF16);
  EXPECT_EQ(signs[0].rounded, -INFINITY);
  EXPECT_EQ(signs[1].rounded, -INFINITY);
}

TEST(RowReductionReference, RmsNormIeeeInfinities) {
  // The IEEE evaluation of an infinite x: sum x^2 = inf, r = 1 / sqrt(inf) = +0, so (x_i r) w_i
  // is +-0 at a finite x_i (the sign of x_i w_i), NaN at the infinite x_i (inf 0) and where w_i
  // is infinite (0 inf).
  const auto ieee = NormInfinities::Ieee;
  const auto y =
      rms_norm_reference(std::vector<float>{INFINITY, -2, 3, 0, 5},
                         std::vector<float>{1, 1, -1, 1, INFINITY}, 1e-5f, DType::F32, ieee);
  EXPECT_TRUE(std::isnan(y[0].rounded));  // inf 0
  EXPECT_EQ(y[1].rounded, 0.0f);
  EXPECT_TRUE(std::signbit(y[1].rounded));  // (-2 0) 1 = -0
  EXPECT_EQ(y[2].rounded, 0.0f);
  EXPECT_TRUE(std::signbit(y[2].rounded));  // (3 0) (-1) = -0
  EXPECT_EQ(y[3].rounded, 0.0f);
  EXPECT_FALSE(std::signbit(y[3].rounded));
  EXPECT_TRUE(std::isnan(y[4].rounded));  // 0 inf
  // -inf in x likewise; a NaN anywhere, or eps = -inf (inf - inf), still NaN everywhere.
  const auto minus = rms_norm_reference(std::vector<float>{1, -INFINITY}, std::vector<float>{2, 2},
                                        0, DType::BF16, ieee);
  EXPECT_EQ(minus[0].rounded, 0.0f);
  EXPECT_TRUE(std::isnan(minus[1].rounded));
  expect_all_nan(rms_norm_reference(std::vector<float>{INFINITY, kNaN}, std::vector<float>{1, 1}, 0,
                                    DType::F32, ieee),
                 "inf and NaN");
  expect_all_nan(rms_norm_reference(std::vector<float>{INFINITY, 1}, std::vector<float>{1, 1},
                                    -INFINITY, DType::F32, ieee),
                 "eps -inf");
  // A finite row is the same under both conventions.
  const auto finite =
      rms_norm_reference(std::vector<float>{3, 4}, std::vector<float>{1, 1}, 0, DType::F32, ieee);
  const auto nan_rule =
      rms_norm_reference(std::vector<float>{3, 4}, std::vector<float>{1, 1}, 0, DType::F32);
  EXPECT_EQ(finite[0].rounded, nan_rule[0].rounded);
  EXPECT_EQ(finite[1].rounded, nan_rule[1].rounded);
}

// ---- Random rows against the independent evaluation ----

/// A value of mixed magnitude: small multiples of powers of two (exact ties and cancellations),
/// or random floats over 2^-20 .. 2^20, sometimes 0 or a repeat of an earlier element.
float mixed_value(std::mt19937& rng, const std::vector<float>& earlier) {
  std::uniform_int_distribution<int> kind(0, 9), small(-16, 16), exponent(-20, 20);
  std::uniform_real_distribution<float> unit(-1, 1);
  switch (kind(rng)) {
    case 0:
      return 0;
    case 1:
    case 2:
      if (!earlier.empty())
        return earlier[std::uniform_int_distribution<std::size_t>(0, earlier.size() - 1)(rng)];
      [[fallthrough]];
    case 3:
    case 4:
      return std::ldexp(static_cast<float>(small(rng)), exponent(rng) / 4);
    default:
      return std::ldexp(unit(rng), exponent(rng));
  }
}

/// A logsumexp input: mostly within +-32 (exp over some 90 binades), sometimes -inf (a masked
/// element), a repeat (S gains an integer), or a far value +-2^k for k up to 14 (the other terms
/// negligible next to it, or it negligible).
float lse_value(std::mt19937& rng, const std::vector<float>& earlier) {
  std::uniform_int_distribution<int> kind(0, 11), exponent(-6, 5), far(6, 14), small(-64, 64);
  std::uniform_real_distribution<float> unit(-1, 1);
  switch (kind(rng)) {
    case 0:
    case 1:
      return -INFINITY;
    case 2:
      if (!earlier.empty())
        return earlier[std::uniform_int_distribution<std::size_t>(0, earlier.size() - 1)(rng)];
      [[fallthrough]];
    case 3:
      return static_cast<float>(small(rng)) / 4;
    case 4:
      return std::ldexp(unit(rng), far(rng));
    default:
      return std::ldexp(unit(rng), exponent(rng));
  }
}

std::string describe(const char* what, int trial, DType t, std::size_t i) {
  return std::string(what) + " trial " + std::to_string(trial) + " " + to_string(t) + " element " +
         std::to_string(i);
}

TEST(RowReductionReference, RandomRowsMatchIndependentMpfr) {
  std::mt19937 rng(20261206);
  std::uniform_int_distribution<int> len(1, 40), which(0, 2), eps_kind(0, 2), coin(0, 3),
      short_len(1, 4), small(-8, 8);
  const float epsilons[] = {0.0f, 1e-5f, 1e-6f};
  for (int trial = 0; trial < 400; ++trial) {
    const DType t = kTypes[which(rng)];
    std::vector<float> x, w, b, z;
    float eps = epsilons[eps_kind(rng)];
    if (trial % 4 == 3) {
      // Rows of two whose square roots are integers: with x = [(s + d) / 2, (s - d) / 2] and
      // eps = (r^2 - d^2) / 4 (exact floats), layer norm's D = d^2 + 4 eps = r^2 (q = +-d / r)
      // and rms norm's n D = 2 (x_0^2 + x_1^2) + 4 eps = s^2 + r^2 = h^2 for a Pythagorean
      // (s, r, h) (y_i = 2 x_i w_i / h): rational outputs, dyadic or not (r or h with an odd
      // factor), and w = k (1 + j 2^-8), b = k / 8 make some of them bf16 midpoints.
      constexpr int kTriples[][2] = {{3, 4}, {4, 3}, {5, 12}, {12, 5}, {8, 15}, {15, 8}, {6, 8}};
      const auto& [sum, r] = kTriples[std::uniform_int_distribution<int>(0, 6)(rng)];
      const int d = std::uniform_int_distribution<int>(1, r - 1)(rng) * (coin(rng) < 2 ? 1 : -1);
      x = {static_cast<float>(sum + d) / 2, static_cast<float>(sum - d) / 2};
      eps = static_cast<float>(r * r - d * d) / 4;
      for (int j = 0; j < 2; ++j) {
        w.push_back(static_cast<float>(small(rng)) *
                    (1 + 0x1p-8f * static_cast<float>(small(rng))));
        b.push_back(static_cast<float>(small(rng)) / 8);
        z.push_back(lse_value(rng, z));
      }
    } else if (trial % 4 == 2) {
      // Short rows of small integers and eps of a few bits: sqrt(D) and sqrt(n D) are sometimes
      // dyadic, and A_i, x_i or w_i often 0.
      const float short_epsilons[] = {0.0f, 0.5f, 0.75f, 1.0f, 2.0f, 3.0f, 5.0f};
      eps = short_epsilons[std::uniform_int_distribution<int>(0, 6)(rng)];
      const auto n = static_cast<std::size_t>(short_len(rng));
      for (std::size_t j = 0; j < n; ++j) {
        x.push_back(static_cast<float>(small(rng)));
        w.push_back(static_cast<float>(small(rng)) *
                    (1 + 0x1p-8f * static_cast<float>(small(rng))));
        b.push_back(static_cast<float>(small(rng)) / 8);
        z.push_back(lse_value(rng, z));
      }
    } else {
      const auto n = static_cast<std::size_t>(len(rng));
      // A large common offset (1e6 + small: the mean cancels most of each x) in a third of rows.
      const float offset = trial % 3 == 0 ? 1e6f : 0.0f;
      for (std::size_t j = 0; j < n; ++j) {
        x.push_back(offset + mixed_value(rng, x));
        w.push_back(coin(rng) == 0 ? 1.0f : mixed_value(rng, w));
        b.push_back(coin(rng) == 0 ? 0.0f : mixed_value(rng, b));
        z.push_back(lse_value(rng, z));
      }
    }
    const auto layer = layer_norm_reference(x, w, b, eps, t);
    const auto layer_exact = independent_layer_norm(x, w, b, eps);
    const auto rms = rms_norm_reference(x, w, eps, t);
    const auto rms_exact = independent_rms_norm(x, w, eps);
    for (std::size_t i = 0; i < x.size(); ++i) {
      expect_element(layer[i], layer_exact[i].get(), t, describe("layer norm", trial, t, i));
      expect_element(rms[i], rms_exact[i].get(), t, describe("rms norm", trial, t, i));
    }
    expect_element(logsumexp_reference(z, t), independent_logsumexp(z).get(), t,
                   describe("logsumexp", trial, t, 0));
    for (int correction : {0, 1}) {
      if (static_cast<int>(x.size()) <= correction) continue;
      const MeanVar mv = mean_var_reference(x, correction, t, DType::F32);
      const auto [mean, var] = independent_mean_var(x, correction);
      expect_element(mv.mean, mean.get(), t, describe("mean", trial, t, 0));
      expect_element(mv.var, var.get(), DType::F32, describe("variance", trial, t, correction));
    }
  }
}

// Worked by hand: [1, 2] has mean 3/2 and deviations -+1/2: variance 1/4 over n, 1/2 over n - 1;
// [1, 2, 4] has mean 7/3 (not dyadic: rounded) and sum of squared deviations 14/3.
TEST(RowReductionReference, MeanVarExactRowsAndConventions) {
  const MeanVar two = mean_var_reference(std::vector<float>{1, 2}, 0, DType::F32, DType::F32);
  expect_exact(two.mean, 1.5, DType::F32, "mean [1, 2]");
  expect_exact(two.var, 0.25, DType::F32, "variance [1, 2]");
  expect_exact(mean_var_reference(std::vector<float>{1, 2}, 1, DType::F32, DType::F32).var, 0.5,
               DType::F32, "unbiased variance [1, 2]");
  const MeanVar three = mean_var_reference(std::vector<float>{1, 2, 4}, 1, DType::BF16, DType::F32);
  EXPECT_EQ(three.mean.rounded, round_to(DType::BF16, static_cast<float>(7.0 / 3.0)));
  EXPECT_EQ(three.var.rounded, static_cast<float>(7.0 / 3.0));  // (14/3) / 2, once rounded
  // n <= correction: 0 / 0; NaN anywhere: both NaN; an infinity: the mean's IEEE value.
  EXPECT_TRUE(
      std::isnan(mean_var_reference(std::vector<float>{3}, 1, DType::F32, DType::F32).var.rounded));
  const MeanVar nan = mean_var_reference(std::vector<float>{1, kNaN}, 0, DType::F32, DType::F32);
  EXPECT_TRUE(std::isnan(nan.mean.rounded) && std::isnan(nan.var.rounded));
  const MeanVar inf =
      mean_var_reference(std::vector<float>{INFINITY, 0}, 0, DType::F32, DType::F32);
  EXPECT_EQ(inf.mean.rounded, INFINITY);
  EXPECT_TRUE(std::isnan(inf.var.rounded));
  EXPECT_TRUE(std::isnan(
      mean_var_reference(std::vector<float>{INFINITY, -INFINITY}, 0, DType::F32, DType::F32)
          .mean.rounded));
  EXPECT_TRUE(std::isnan(mean_var_reference({}, 0, DType::F32, DType::F32).mean.rounded));
}

TEST(RowReductionReference, LongRowsMatchIndependentMpfr) {
  // Rows of 600 (the longest the suite draws), in each output type.
  std::mt19937 rng(600);
  std::normal_distribution<float> normal(0, 3);
  for (DType t : kTypes) {
    std::vector<float> x(600), w(600), b(600);
    for (std::size_t j = 0; j < x.size(); ++j) {
      x[j] = normal(rng);
      w[j] = 1 + normal(rng) / 8;
      b[j] = normal(rng) / 4;
    }
    expect_element(logsumexp_reference(x, t), independent_logsumexp(x).get(), t, "logsumexp 600");
    const auto layer = layer_norm_reference(x, w, b, 1e-5f, t);
    const auto layer_exact = independent_layer_norm(x, w, b, 1e-5f);
    const auto rms = rms_norm_reference(x, w, 1e-6f, t);
    const auto rms_exact = independent_rms_norm(x, w, 1e-6f);
    for (std::size_t i = 0; i < x.size(); ++i) {
      expect_element(layer[i], layer_exact[i].get(), t, "layer norm 600 " + std::to_string(i));
      expect_element(rms[i], rms_exact[i].get(), t, "rms norm 600 " + std::to_string(i));
    }
  }
}

}  // namespace
}  // namespace osvs::oracle
