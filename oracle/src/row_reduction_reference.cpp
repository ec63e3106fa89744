// The exact row reductions logsumexp, layer norm and RMS norm
// (osvs/oracle/row_reduction_reference.h).
//
// Exact intermediates. Every finite float is k 2^e with |k| < 2^24 and -149 <= e <= 104 (below
// 2^128, a multiple of 2^-149), a row has n < 2^32 elements, and MPFR holds a sum or product
// exactly when its precision covers the result's significant bits:
//   x_j - m            a multiple of 2^-149 below 2^129: 278 bits            (kDiffBits 288)
//   sum_j x_j          a multiple of 2^-149 below 2^160: 309 bits            (kRowSumBits 320)
//   A_i = n x_i - sum  a multiple of 2^-149 below 2^161: 310 bits            (kRowSumBits)
//   sum_j x_j^2        a multiple of 2^-298 below 2^288: 586 bits            (kSquareBits 640)
//   n sum x^2, (sum x)^2  multiples of 2^-298 below 2^320: 618 bits          (kSquareBits)
//   eps n^2            24 + 64 bits                                          (kSquareBits)
//   layer-norm D = n sum x^2 - (sum x)^2 + eps n^2, a multiple of 2^-298 below 2^322: 620 bits
//   rms-norm D = sum x^2 + n eps, a multiple of 2^-298 below 2^289: 587 bits; n D: 619 bits
// A square root of such a D (or n D), when it is dyadic, is K 2^f with K odd and K^2 2^2f = D, so
// K^2 is D's odd part (< 2^620) and K < 2^310: mpfr_sqrt at kSqrtBits = 320 is exact (ternary 0)
// exactly when sqrt(D) is dyadic; otherwise sqrt(D) is irrational (D 4^k is an integer for some
// k, and the square root of an integer is an integer or irrational). A dyadic r = sqrt(D) is a
// multiple of 2^-149 (2f >= -298) below 2^161.
//   layer-norm A_i w_i: 310 + 24 = 334 bits                                  (kProductBits 352)
//   layer-norm A_i w_i + b_i r: products of 310- and 24-bit multiples of 2^-149, each a multiple
//     of 2^-298 below 2^289; their sum below 2^290: 588 bits                 (kNumeratorBits 640)
//   rms-norm x_i w_i r: 24 + 24 + 310 = 358 bits                             (kNumeratorBits)
// A quotient N / R of such exact values that is dyadic has the odd part of N over that of R as
// significand, at most N's bits (588): mpfr_div at kQuotientBits = 640 is exact (ternary 0)
// exactly when the quotient is dyadic; otherwise it is a non-dyadic rational.
//
// Ziv. An output that is irrational, or rational but not dyadic, is neither a rounding boundary
// of the output type (a midpoint, at most 25 significant bits), nor one of double's (54 bits),
// nor a power of two, nor 0: it lies at a positive distance from each. At precision p (128, 256,
// ..., 8192) each computes an approximation t and a bound err = 2^E on |t - y| (derived next to
// the code); y is decided when t != 0, err <= 2^(EXP(t) - 60), both ends of [t - err, t + err]
// (rounded outward) have one sign and one binade and round to one double, and decided(t, err)
// rounds them to one value of the output type. Then y's rounding, double and binade are t's.
// Undecided at 8192 bits (an output within about 2^-8000 of a boundary): std::runtime_error.
// (MPFR's EXP(x): |x| in [2^(EXP(x) - 1), 2^EXP(x)); a rounding to nearest at p bits is off by at
// most 2^(EXP(result) - p - 1), and by at most 2^-p relative where nothing underflows.)
//
// Exponent range: MPFR's widest (emin_min = 1 - 2^62 with a 64-bit mpfr_exp_t) while a reference
// runs, so only logsumexp's exp(x_j - m) can underflow (below x_j - m < -3e18), handled there.
#include "osvs/oracle/row_reduction_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "mpfr_value.h"
#include "widest_exponents.h"

namespace osvs::oracle {
namespace {

using detail::exact_element;
using detail::ieee_element;
using detail::MpValue;
using detail::WidestExponents;
using detail::ziv_decided;

static_assert(sizeof(mpfr_exp_t) >= 8, "the underflow bounds assume MPFR's 64-bit exponents");

constexpr mpfr_prec_t kDiffBits = 288;
constexpr mpfr_prec_t kRowSumBits = 320;
constexpr mpfr_prec_t kSquareBits = 640;
constexpr mpfr_prec_t kSqrtBits = 320;
constexpr mpfr_prec_t kProductBits = 352;
constexpr mpfr_prec_t kNumeratorBits = 640;
constexpr mpfr_prec_t kQuotientBits = 640;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool all_finite(std::span<const float> v) {
  return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
}

void check_length(std::span<const float> x, std::span<const float> v, const char* what) {
  if (x.size() != v.size())
    throw std::invalid_argument(std::string(what) + " reference: rows of two lengths");
}

std::vector<ExactElement> all_nan(std::size_t n, DType out) {
  return std::vector<ExactElement>(n, ieee_element(kNaN, out));
}

/// sum_j x_j and sum_j x_j^2 of finite floats, exactly (kRowSumBits and kSquareBits hold them;
/// `scratch` has kSquareBits).
void exact_sums(std::span<const float> x, mpfr_ptr sum, mpfr_ptr sumsq, mpfr_ptr scratch) {
  mpfr_set_zero(sum, 1);
  mpfr_set_zero(sumsq, 1);
  for (float v : x) {
    mpfr_add_d(sum, sum, v, MPFR_RNDN);  // exact
    mpfr_set_flt(scratch, v, MPFR_RNDN);
    mpfr_mul_d(scratch, scratch, v, MPFR_RNDN);  // exact (48 bits)
    mpfr_add(sumsq, sumsq, scratch, MPFR_RNDN);  // exact
  }
}

/// The element of a float input taken as the exact output.
ExactElement float_element(float v, DType out) {
  MpValue x(24);
  mpfr_set_flt(x.get(), v, MPFR_RNDN);  // exact
  return exact_element(x.get(), out);
}

/// Ziv's loop: step(p, t) sets t (of precision p) to an approximation of y and returns E with
/// |t - y| <= 2^E (y neither dyadic nor 0, so some precision decides it, barring 2^-8000).
template <class Step>
ExactElement ziv(const char* what, DType out, Step step) {
  for (mpfr_prec_t p : detail::kZivBits) {
    MpValue t(p);
    const mpfr_exp_t err_exp = step(p, t.get());
    if (const auto e = ziv_decided(t.get(), err_exp, out)) return *e;
  }
  throw std::runtime_error(std::string(what) +
                           " reference: a rounding is undecided at 8192 bits (an output within "
                           "2^-8000 of a rounding boundary)");
}

/// A quantity of the row computed once per Ziv precision, on first use (sqrt(D) and the like).
class PerPrecision {
 public:
  template <class Make>
  mpfr_srcptr at(mpfr_prec_t p, Make make) {
    for (auto& [precision, value] : values_)
      if (precision == p) return value.get();
    values_.emplace_back(p, MpValue(p));
    make(values_.back().second.get());
    return values_.back().second.get();
  }

 private:
  std::vector<std::pair<mpfr_prec_t, MpValue>> values_;
};

/// num / den of two exact values (den > 0) correctly rounded to `out`: exact where the quotient
/// at kQuotientBits is (it is dyadic, above), else decided by Ziv on the one division, rounded
/// once: |t - y| <= 2^(EXP(t) - p - 1).
ExactElement quotient_element(const char* what, mpfr_srcptr num, mpfr_srcptr den, DType out) {
  MpValue q(kQuotientBits);
  if (mpfr_div(q.get(), num, den, MPFR_RNDN) == 0) return exact_element(q.get(), out);
  return ziv(what, out, [&](mpfr_prec_t p, mpfr_ptr t) {
    mpfr_div(t, num, den, MPFR_RNDN);
    return mpfr_get_exp(t) - p;
  });
}

/// A row's first largest finite element m = x_k and the other finite elements' x_j - m, exact
/// (kDiffBits: two floats' difference has at most 277 significant bits).
struct MaxAndRest {
  bool finite = false;  ///< the row has a finite element
  float m = 0;
  std::vector<MpValue> d;
};

MaxAndRest max_and_rest(std::span<const float> x) {
  MaxAndRest row;
  std::size_t k = x.size();
  for (std::size_t j = 0; j < x.size(); ++j)
    if (std::isfinite(x[j]) && (k == x.size() || x[j] > x[k])) k = j;
  if (k == x.size()) return row;
  row.finite = true;
  row.m = x[k];
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (j == k || !std::isfinite(x[j])) continue;
    row.d.emplace_back(kDiffBits);
    mpfr_set_flt(row.d.back().get(), x[j], MPFR_RNDN);
    mpfr_sub_d(row.d.back().get(), row.d.back().get(), row.m, MPFR_RNDN);  // exact
  }
  return row;
}

/// R' = sum_j exp(d_j) at R's precision p, for R = sum_j exp(d_j) (d_j <= 0, d non-empty).
/// e_j = exp(d_j) rounded to nearest at p bits: |e_j' - e_j| <= 2^-p e_j, or < 2^emin_min where
/// it underflows (d_j < -3e18). R' = sum_j e_j' rounded once (mpfr_sum): off from the exact sum
/// of the e_j' by at most 2^-p of it. So
///   |R' - R| <= 2^-p R (2 + 2^-p) + 2U,   U < n 2^emin_min < 2^(33 - 2^62) the underflows',
/// hence R <= (R' + 2U)(1 + 2^-100) < (2^EXP(R') + 2U)(1 + 2^-100), and
///   |R' - R| < 2^(EXP(R') + 2 - p)   wherever EXP(R') >= -2^30 (U is then below 2^-(2^61) R').
void sum_of_exps(mpfr_ptr R, const std::vector<MpValue>& d) {
  const mpfr_prec_t p = mpfr_get_prec(R);
  std::vector<MpValue> e;
  std::vector<mpfr_ptr> terms;
  e.reserve(d.size());
  for (const MpValue& dj : d) {
    e.emplace_back(p);
    mpfr_exp(e.back().get(), dj.get(), MPFR_RNDN);
    terms.push_back(e.back().get());
  }
  mpfr_sum(R, terms.data(), terms.size(), MPFR_RNDN);
}

}  // namespace

// logsumexp. m = x_k the first maximum among the finite elements; R = sum_{j != k, x_j finite}
// exp(x_j - m) (S = 1 + R); lse = m + log1p(R). R = 0 (no other finite element) gives m exactly.
//
// Otherwise lse is irrational (so Ziv decides it): suppose lse = m + log(S) were rational. Then
// S = exp(d) with d = lse - m rational, and exp(d) - sum_j c_j exp(r_j) = 0, where r_j are the
// distinct values of x_j - m (rational, one of them 0) and c_j >= 1 their multiplicities. By
// Lindemann-Weierstrass, exp of distinct algebraic numbers are linearly independent over the
// algebraic numbers, so after merging equal exponents every coefficient is 0: d is one of the
// r_j, its c_j is 1 and there is no other r_j, i.e. S = 1, R = 0. So R > 0 makes lse irrational.
ExactElement logsumexp_reference(std::span<const float> x, DType out) {
  if (x.empty()) return ieee_element(-INFINITY, out);
  if (std::any_of(x.begin(), x.end(), [](float v) { return std::isnan(v); }))
    return ieee_element(kNaN, out);
  if (std::any_of(x.begin(), x.end(), [](float v) { return v == INFINITY; }))
    return ieee_element(INFINITY, out);
  const WidestExponents range;
  const MaxAndRest row = max_and_rest(x);
  if (!row.finite) return ieee_element(-INFINITY, out);  // every element -inf
  const float m = row.m;
  if (row.d.empty()) return float_element(m, out);  // S = 1
  for (mpfr_prec_t p : detail::kZivBits) {
    MpValue R(p), L(p), t(p);
    sum_of_exps(R.get(), row.d);
    const bool tiny = mpfr_zero_p(R.get()) || mpfr_get_exp(R.get()) <= -301;
    if (tiny && m != 0) {
      // R < (2^-301 + 2U)(1 + 2^-100) < 2^-300, and lse = m + log1p(R) lies in (m, m + 2^-300].
      // With |m| >= 2^-149 the 128-bit number next above m is m + g, g >= 2^-277; no number of
      // at most 128 bits lies strictly between them, and m + g itself has 128 significant bits
      // (m's leading bit down to g): so no rounding boundary (<= 54 bits) and no power of two
      // lies in (m, m + g], which holds lse. lse rounds, to every type and to double, as m + g
      // does, and has its binade.
      MpValue above(128);
      mpfr_set_flt(above.get(), m, MPFR_RNDN);
      mpfr_nextabove(above.get());
      return exact_element(above.get(), out);
    }
    if (mpfr_zero_p(R.get()) || mpfr_get_exp(R.get()) < -(mpfr_exp_t{1} << 30)) {
      // m = 0 and R < 2^-2^30: 0 < lse <= R rounds to +0 in every type and in double; its
      // binade, below -2^30, is reported as kZeroBinade (the header's convention).
      return ExactElement{0.0f, 0.0, kZeroBinade};
    }
    // L' = log1p(R') rounded: log1p is 1-Lipschitz on [0, inf), so
    //   |L' - log1p(R)| <= |R' - R| + 2^(EXP(L') - p - 1);
    // t = m + L' rounded adds 2^(EXP(t) - p - 1). Three terms, each at most 2^(M - p) with
    // M = max(EXP(R') + 2, EXP(L') - 1, EXP(t) - 1): err < 3 2^(M - p) < 2^(M + 2 - p).
    mpfr_log1p(L.get(), R.get(), MPFR_RNDN);
    mpfr_add_d(t.get(), L.get(), m, MPFR_RNDN);
    if (mpfr_zero_p(t.get())) continue;  // |lse| below the error: a higher precision
    const mpfr_exp_t M =
        std::max({mpfr_get_exp(R.get()) + 2, mpfr_get_exp(L.get()) - 1, mpfr_get_exp(t.get()) - 1});
    if (const auto decided_lse = ziv_decided(t.get(), M + 2 - p, out)) return *decided_lse;
  }
  throw std::runtime_error(
      "logsumexp reference: a rounding is undecided at 8192 bits (an output within 2^-8000 of a "
      "rounding boundary)");
}

// layer_norm: the sums are exact (header comment above), D > 0, and per element
//   A_i w_i = 0:          y_i = b_i exactly;
//   sqrt(D) = r dyadic:   y_i = (A_i w_i + b_i r) / r, a rational computed exactly or, when not
//                         dyadic (the division's ternary is not 0), by Ziv on the one division;
//   sqrt(D) irrational:   y_i = A_i w_i / sqrt(D) + b_i is irrational (A_i w_i != 0 rational):
//                         Ziv.
std::vector<ExactElement> layer_norm_reference(std::span<const float> x, std::span<const float> w,
                                               std::span<const float> b, float eps, DType out) {
  check_length(x, w, "layer norm");
  check_length(x, b, "layer norm");
  const std::size_t n = x.size();
  std::vector<ExactElement> y(n);
  if (n == 0) return y;
  if (!all_finite(x) || std::isnan(eps) || eps == -INFINITY) return all_nan(n, out);
  if (eps == INFINITY) {  // var + eps = +inf: q_i = 0 and y_i = 0 w_i + b_i
    for (std::size_t i = 0; i < n; ++i)
      y[i] = std::isfinite(w[i]) && std::isfinite(b[i])
                 ? float_element(b[i], out)
                 : ieee_element(0.0 * static_cast<double>(w[i]) + static_cast<double>(b[i]), out);
    return y;
  }
  const WidestExponents range;
  const auto count = static_cast<unsigned long>(n);
  MpValue sum(kRowSumBits), sumsq(kSquareBits), square(kSquareBits), D(kSquareBits);
  exact_sums(x, sum.get(), sumsq.get(), square.get());
  mpfr_mul_ui(D.get(), sumsq.get(), count, MPFR_RNDN);  // exact
  mpfr_sqr(square.get(), sum.get(), MPFR_RNDN);         // exact
  mpfr_sub(D.get(), D.get(), square.get(), MPFR_RNDN);  // exact
  mpfr_set_flt(square.get(), eps, MPFR_RNDN);
  mpfr_mul_ui(square.get(), square.get(), count, MPFR_RNDN);  // exact
  mpfr_mul_ui(square.get(), square.get(), count, MPFR_RNDN);  // exact
  mpfr_add(D.get(), D.get(), square.get(), MPFR_RNDN);        // exact
  if (mpfr_sgn(D.get()) <= 0) return all_nan(n, out);         // 0 / 0, or sqrt of a negative
  MpValue r(kSqrtBits);
  const bool rational = mpfr_sqrt(r.get(), D.get(), MPFR_RNDN) == 0;
  PerPrecision roots;  // sqrt(D) rounded to nearest at p bits
  MpValue A(kRowSumBits), P(kProductBits), num(kNumeratorBits), q53(53);
  for (std::size_t i = 0; i < n; ++i) {
    mpfr_set_flt(A.get(), x[i], MPFR_RNDN);
    mpfr_mul_ui(A.get(), A.get(), count, MPFR_RNDN);   // exact
    mpfr_sub(A.get(), A.get(), sum.get(), MPFR_RNDN);  // exact
    if (!std::isfinite(w[i]) || !std::isfinite(b[i])) {
      // q_i = A_i / sqrt(D) to double (A_i / r: r is sqrt(D) or within 2^-319 of it; q_i's sign
      // and zero are exact, all the IEEE evaluation's class depends on).
      mpfr_div(q53.get(), A.get(), r.get(), MPFR_RNDN);
      const double qd = mpfr_get_d(q53.get(), MPFR_RNDN);
      y[i] = ieee_element(qd * static_cast<double>(w[i]) + static_cast<double>(b[i]), out);
      continue;
    }
    mpfr_mul_d(P.get(), A.get(), w[i], MPFR_RNDN);  // exact
    if (mpfr_zero_p(P.get())) {
      y[i] = float_element(b[i], out);
    } else if (rational) {
      mpfr_mul_d(num.get(), r.get(), b[i], MPFR_RNDN);                 // exact
      mpfr_add(num.get(), num.get(), P.get(), MPFR_RNDN);              // exact
      y[i] = quotient_element("layer norm", num.get(), r.get(), out);  // y_i = num / r
    } else {
      // s = sqrt(D) (1 + e1), Q = P / s (1 + e2), |e1|, |e2| <= 2^-p: Q = q_i w_i (1 + e2) /
      // (1 + e1), so |Q - q_i w_i| <= |q_i w_i| 2^(1-p) / (1 - 2^-p) < 2^(2-p) |Q|, at most
      // 2^(EXP(Q) + 2 - p); t = Q + b_i rounded adds 2^(EXP(t) - p - 1):
      //   err <= 2^(max(EXP(Q) + 2, EXP(t)) - p + 1).
      const float bi = b[i];
      y[i] = ziv("layer norm", out, [&](mpfr_prec_t p, mpfr_ptr t) {
        mpfr_srcptr s = roots.at(p, [&](mpfr_ptr root) { mpfr_sqrt(root, D.get(), MPFR_RNDN); });
        MpValue Q(p);
        mpfr_div(Q.get(), P.get(), s, MPFR_RNDN);
        mpfr_add_d(t, Q.get(), bi, MPFR_RNDN);
        if (mpfr_zero_p(t)) return mpfr_exp_t{0};  // undecided (ziv_decided rejects t = 0)
        return std::max(mpfr_get_exp(Q.get()) + 2, mpfr_get_exp(t)) - p + 1;
      });
    }
  }
  return y;
}

// rms_norm: D = sum x^2 + n eps exact, D > 0, y_i = x_i w_i sqrt(n D) / D; per element
//   x_i w_i = 0:           y_i = 0;
//   sqrt(n D) = r dyadic:  y_i = x_i w_i r / D, rational: exact, or Ziv on the one division;
//   sqrt(n D) irrational:  y_i irrational (x_i w_i != 0): Ziv.
std::vector<ExactElement> rms_norm_reference(std::span<const float> x, std::span<const float> w,
                                             float eps, DType out, NormInfinities infinities) {
  check_length(x, w, "rms norm");
  const std::size_t n = x.size();
  std::vector<ExactElement> y(n);
  if (n == 0) return y;
  const bool any_nan = std::any_of(x.begin(), x.end(), [](float v) { return std::isnan(v); });
  // A NaN x, or (by the Nan convention) an infinite one, leaves the row no finite mean square, so
  // no scale normalises it: every y_i NaN, as LayerNorm's row (and a kernel whose statistics run
  // through a variance).
  if (std::isnan(eps) || any_nan || (!all_finite(x) && infinities == NormInfinities::Nan))
    return all_nan(n, out);
  if (!std::isfinite(eps) || !all_finite(x)) {
    // The IEEE evaluation: an infinite x or eps = +inf makes r = 0 (y_i = (x_i 0) w_i: +-0 at a
    // finite x_i and w_i, NaN at an infinite one: inf 0); eps = -inf makes it NaN (and with an
    // infinite x, inf - inf).
    double squares = 0;
    for (float v : x) squares += static_cast<double>(v) * static_cast<double>(v);
    const double rd = 1 / std::sqrt(squares / static_cast<double>(n) + static_cast<double>(eps));
    for (std::size_t i = 0; i < n; ++i)
      y[i] = ieee_element(static_cast<double>(x[i]) * rd * static_cast<double>(w[i]), out);
    return y;
  }
  const WidestExponents range;
  const auto count = static_cast<unsigned long>(n);
  MpValue D(kSquareBits), square(kSquareBits), nD(kSquareBits);
  mpfr_set_zero(D.get(), 1);
  for (float v : x) {
    mpfr_set_flt(square.get(), v, MPFR_RNDN);
    mpfr_mul_d(square.get(), square.get(), v, MPFR_RNDN);  // exact (48 bits)
    mpfr_add(D.get(), D.get(), square.get(), MPFR_RNDN);   // exact
  }
  mpfr_set_flt(square.get(), eps, MPFR_RNDN);
  mpfr_mul_ui(square.get(), square.get(), count, MPFR_RNDN);  // exact
  mpfr_add(D.get(), D.get(), square.get(), MPFR_RNDN);        // exact
  if (mpfr_sgn(D.get()) <= 0) return all_nan(n, out);         // 0 * inf, or sqrt of a negative
  mpfr_mul_ui(nD.get(), D.get(), count, MPFR_RNDN);           // exact
  MpValue r(kSqrtBits);
  const bool rational = mpfr_sqrt(r.get(), nD.get(), MPFR_RNDN) == 0;
  // r / D to double: 1 / sqrt(D / n) for the non-finite w_i (their class depends on its sign
  // and finiteness only).
  MpValue rd(53);
  mpfr_div(rd.get(), r.get(), D.get(), MPFR_RNDN);
  const double r_double = mpfr_get_d(rd.get(), MPFR_RNDN);
  PerPrecision scales;  // sqrt(n D) / D, each step rounded to nearest at p bits
  MpValue xw(64), num(kNumeratorBits);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(w[i])) {
      y[i] = ieee_element(static_cast<double>(x[i]) * r_double * static_cast<double>(w[i]), out);
      continue;
    }
    mpfr_set_flt(xw.get(), x[i], MPFR_RNDN);
    mpfr_mul_d(xw.get(), xw.get(), w[i], MPFR_RNDN);  // exact (48 bits)
    if (mpfr_zero_p(xw.get())) {
      y[i] = exact_element(xw.get(), out);
    } else if (rational) {
      mpfr_mul(num.get(), xw.get(), r.get(), MPFR_RNDN);             // exact
      y[i] = quotient_element("rms norm", num.get(), D.get(), out);  // y_i = num / D
    } else {
      // c = sqrt(n D) (1 + e1) / D (1 + e2), t = x_i w_i c (1 + e3), |e_k| <= 2^-p, so
      // t = y_i (1 + e1)(1 + e2)(1 + e3) and |t - y_i| <= |y_i| 3.01 2^-p
      //   <= |t| 3.01 2^-p / (1 - 3.01 2^-p) < 2^(2-p) |t| <= 2^(EXP(t) + 2 - p).
      y[i] = ziv("rms norm", out, [&](mpfr_prec_t p, mpfr_ptr t) {
        mpfr_srcptr c = scales.at(p, [&](mpfr_ptr scale) {
          mpfr_sqrt(scale, nD.get(), MPFR_RNDN);
          mpfr_div(scale, scale, D.get(), MPFR_RNDN);
        });
        mpfr_mul(t, xw.get(), c, MPFR_RNDN);
        return mpfr_get_exp(t) + 2 - p;
      });
    }
  }
  return y;
}

// mean_var: the mean S / n and the variance N / (n (n - c)), N = n sum x^2 - S^2 (>= 0), S and N
// exact (kRowSumBits, kSquareBits: N's 618 bits fit kQuotientBits), each a quotient of exact
// values with a denominator below 2^64 (quotient_element).
MeanVar mean_var_reference(std::span<const float> x, int correction, DType mean_out,
                           DType var_out) {
  const std::size_t n = x.size();
  MeanVar r{ieee_element(kNaN, mean_out), ieee_element(kNaN, var_out)};
  if (n == 0 || std::any_of(x.begin(), x.end(), [](float v) { return std::isnan(v); })) return r;
  if (!all_finite(x)) {  // the mean's IEEE value (+-inf, or NaN for both), the variance NaN
    double sum = 0;
    for (float v : x) sum += static_cast<double>(v);
    r.mean = ieee_element(sum / static_cast<double>(n), mean_out);
    return r;
  }
  const WidestExponents range;
  const auto count = static_cast<unsigned long>(n);
  MpValue sum(kRowSumBits), sumsq(kSquareBits), square(kSquareBits), N(kSquareBits), den(128);
  exact_sums(x, sum.get(), sumsq.get(), square.get());
  mpfr_set_ui(den.get(), count, MPFR_RNDN);  // exact
  r.mean = quotient_element("mean", sum.get(), den.get(), mean_out);
  if (static_cast<long long>(n) <= correction) return r;  // n - c <= 0: 0 / 0, NaN
  mpfr_mul_ui(N.get(), sumsq.get(), count, MPFR_RNDN);    // exact
  mpfr_sqr(square.get(), sum.get(), MPFR_RNDN);           // exact
  mpfr_sub(N.get(), N.get(), square.get(), MPFR_RNDN);    // exact, >= 0
  mpfr_mul_ui(den.get(), den.get(), count - static_cast<unsigned long>(correction),
              MPFR_RNDN);  // exact: below 2^64
  r.var = quotient_element("variance", N.get(), den.get(), var_out);
  return r;
}

// cross_entropy. With weights w_t = (1 - eps) + eps / n, w_j = eps / n (j != t), which sum to 1,
//   loss = sum_j w_j (lse - x_j) = lse - (1 - eps) x_t - (eps / n) sum_j x_j,
// every term lse - x_j >= 0 (a term of weight 0 is absent: eps = 0 keeps the target's alone).
// The special rows are the extended reals' (header): the loss is NaN where a present term is
// NaN or inf - inf, +inf where one is +inf. In a finite row, with m, R and L = log1p(R) as
// logsumexp's (lse = m + L),
//   n loss = n L + K,   K = n (m - x_t) + eps (n x_t - sum_j x_j),   K / n >= 0
// (m >= x_t and m >= the mean). K is exact: m - x_t at kDiffBits, n (m - x_t) 17 bits more,
// n x_t - sum_j x_j at kRowSumBits, its product with eps 24 bits more: below 400 bits at
// kNumeratorBits (each operation's ternary checked). K is a multiple of 2^-298 (floats are
// multiples of 2^-149, eps too) below 2^155.
//
// A batch of rows of one length n reduces the counted rows' losses (the set C, c = |C|) to
//   S = sum_(i in C) loss_i = (sum_i K_i) / n + sum_i L_i   (reduction sum; c' = 1)
//   S / c                                                  (reduction mean; c' = c)
// so the value is V = Q + Lsum / c' with Q = Ktot / N, Ktot = sum_i K_i exact (c < 2^32 rows add
// 32 bits: below 440 at kNumeratorBits, ternaries checked) and N = n c' < 2^56. A row alone is
// the batch of that row, reduced by sum (cross_entropy_reference).
//   Every R_i = 0 (each counted row has one finite element): V = Q, rational: quotient_element.
//   Some R_i > 0: V is irrational, by Lindemann-Weierstrass: sum_i lse_i = sum_i m_i + log P with
//     P = prod_i (1 + R_i), a sum of exp(b) over rational b <= 0 with positive integer
//     coefficients, the exponent 0 once with coefficient 1 and some b < 0: e^(b_k) are linearly
//     independent over the algebraic numbers for distinct b_k, so P is transcendental, and
//     log P = a algebraic would make P - e^a = 0 such a relation (a = 0 gives P = 1, not > 1).
//     So V = rational + log P / c' is not a rounding boundary: Ziv on t = Q' + Lsum' / c'
//     (below), unless the R_i are tiny:
//   Every R_i' < 2^-701 (or below 2^-2^30, "underflowed"): Lsum / c' <= sum_i R_i < 2^32 2^-700
//     = 2^-668. Q = 0: V = Lsum / c' alone, which Ziv decides unless every row underflowed (then
//     V < 2^(1 - 2^30) rounds to +0 everywhere, logsumexp's convention). Q > 0: Q >= 2^-298 / N
//     > 2^-354. A rounding boundary b of any type or of double (at most 55 significant bits: a
//     midpoint or a power of two) within 2^-466 of Q has |b| > 2^-355, so it is a multiple of
//     2^-410, and so is N b; then Ktot - N b, a multiple of 2^-410, is 0 or at least 2^-410, i.e.
//     |Q - b| = 0 or >= 2^-410 / N > 2^-466. Hence (Q, Q + 2^-466) holds no boundary, and V in
//     (Q, Q + 2^-668) rounds (to every type and to double) and has the binade of any number
//     there: w = Q rounded up at 1024 bits, one step above where that is exact (w - Q <=
//     2^(EXP(Q) - 1023) <= 2^-867: Q < 2^156).
namespace {

/// What a counted row must be for its loss to exist (the header's std::invalid_argument).
void check_counted_row(std::size_t n, std::int64_t target, float eps) {
  if (n == 0 || n >= (std::size_t{1} << 24))
    throw std::invalid_argument("cross_entropy reference: a row of 1 ... 2^24 - 1 elements");
  if (target < 0 || target >= static_cast<std::int64_t>(n))
    throw std::invalid_argument("cross_entropy reference: target " + std::to_string(target) +
                                " outside the row of " + std::to_string(n) +
                                " and not ignore_index");
  if (!(eps >= 0 && eps <= 1))
    throw std::invalid_argument("cross_entropy reference: label_smoothing outside [0, 1]");
}

/// The loss of a special row (NaN or +inf: the header's extended reals), or nullopt where every
/// present term is finite.
std::optional<double> special_loss(std::span<const float> x, std::int64_t target, float eps) {
  const float xt = x[static_cast<std::size_t>(target)];
  const bool any_nan = std::any_of(x.begin(), x.end(), [](float v) { return std::isnan(v); });
  const bool any_pinf = std::any_of(x.begin(), x.end(), [](float v) { return v == INFINITY; });
  const bool any_ninf = std::any_of(x.begin(), x.end(), [](float v) { return v == -INFINITY; });
  const bool all_ninf = std::all_of(x.begin(), x.end(), [](float v) { return v == -INFINITY; });
  if (eps > 0) {  // every term present
    if (any_nan || any_pinf || all_ninf) return kNaN;
    if (any_ninf) return INFINITY;
  } else {  // the target's term alone
    if (any_nan || all_ninf || xt == INFINITY) return kNaN;
    if (any_pinf || xt == -INFINITY) return INFINITY;
  }
  return std::nullopt;
}

void checked(int ternary) {
  if (ternary != 0) throw std::logic_error("cross_entropy reference: an inexact step of K");
}

/// K += n (m - x_t) + eps (n x_t - sum_j x_j), exactly (K and the scratch at kNumeratorBits).
void add_exact_k(std::span<const float> x, float m, std::int64_t target, float eps, mpfr_ptr K) {
  const auto n = static_cast<long>(x.size());
  const float xt = x[static_cast<std::size_t>(target)];
  MpValue row(kNumeratorBits), sum(kNumeratorBits), scratch(kNumeratorBits);
  mpfr_set_flt(row.get(), m, MPFR_RNDN);
  checked(mpfr_sub_d(row.get(), row.get(), xt, MPFR_RNDN));
  checked(mpfr_mul_si(row.get(), row.get(), n, MPFR_RNDN));
  if (eps > 0) {
    mpfr_set_zero(sum.get(), 1);
    for (float v : x) checked(mpfr_add_d(sum.get(), sum.get(), v, MPFR_RNDN));
    mpfr_set_flt(scratch.get(), xt, MPFR_RNDN);
    checked(mpfr_mul_si(scratch.get(), scratch.get(), n, MPFR_RNDN));
    checked(mpfr_sub(scratch.get(), scratch.get(), sum.get(), MPFR_RNDN));
    checked(mpfr_mul_d(scratch.get(), scratch.get(), eps, MPFR_RNDN));
    checked(mpfr_add(row.get(), row.get(), scratch.get(), MPFR_RNDN));
  }
  checked(mpfr_add(K, K, row.get(), MPFR_RNDN));
}

/// ceil(log2 r) for r >= 1: r values each below 2^M sum below 2^(M + ceil(log2 r)).
mpfr_exp_t ceil_log2(std::size_t r) {
  mpfr_exp_t bits = 0;
  while ((std::size_t{1} << bits) < r) ++bits;
  return bits;
}

}  // namespace

ExactElement cross_entropy_batch_reference(const std::vector<std::span<const float>>& rows,
                                           std::span<const std::int64_t> targets,
                                           std::int64_t ignore_index, float label_smoothing,
                                           BatchReduction reduction, DType out) {
  if (rows.size() != targets.size())
    throw std::invalid_argument("cross_entropy reference: one target a row");
  const bool mean = reduction == BatchReduction::Mean;
  const float eps = label_smoothing;
  std::vector<std::size_t> counted;
  bool any_nan = false, any_inf = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (targets[i] == ignore_index) continue;  // counts for nothing, whatever the row holds
    check_counted_row(rows[i].size(), targets[i], eps);
    if (!counted.empty() && rows[i].size() != rows[counted[0]].size())
      throw std::invalid_argument("cross_entropy reference: rows of two lengths");
    counted.push_back(i);
    if (const auto special = special_loss(rows[i], targets[i], eps)) {
      any_nan = any_nan || std::isnan(*special);
      any_inf = true;
    }
  }
  if (any_nan) return ieee_element(kNaN, out);
  if (any_inf) return ieee_element(INFINITY, out);  // the losses are >= 0: no inf - inf
  if (counted.empty()) return ieee_element(mean ? kNaN : 0.0, out);  // 0 / 0, or the empty sum
  const WidestExponents range;
  const auto n = static_cast<unsigned long>(rows[counted[0]].size());
  const unsigned long divisor = mean ? counted.size() : 1;  // c'
  MpValue K(kNumeratorBits), N(128), C(128);
  mpfr_set_zero(K.get(), 1);
  std::vector<MaxAndRest> rests;  // the counted rows with R > 0
  for (std::size_t i : counted) {
    MaxAndRest row = max_and_rest(rows[i]);
    add_exact_k(rows[i], row.m, targets[i], eps, K.get());
    if (!row.d.empty()) rests.push_back(std::move(row));
  }
  mpfr_set_ui(C.get(), divisor, MPFR_RNDN);
  mpfr_mul_ui(N.get(), C.get(), n, MPFR_RNDN);  // exact: below 2^56
  if (rests.empty()) return quotient_element("cross_entropy", K.get(), N.get(), out);  // V = Q
  const bool q_zero = mpfr_zero_p(K.get());
  for (mpfr_prec_t p : detail::kZivBits) {
    // Each row's L_i' = log1p(R_i'): |L_i' - L_i| <= |R_i' - R_i| + 2^(EXP(L_i') - p - 1)
    // (log1p is 1-Lipschitz on [0, inf)) < 2^(max(EXP(R_i') + 2, EXP(L_i') - 1) + 1 - p); an
    // underflowed row's (R_i' = 0 or EXP(R_i') < -2^30) below 2^(2 - 2^30) absolutely
    // (sum_of_exps). Over r rows: below 2^(Mrows + ceil(log2 r) - p).
    std::vector<MpValue> L;
    std::vector<mpfr_ptr> terms;
    L.reserve(rests.size());
    mpfr_exp_t m_rows = std::numeric_limits<mpfr_exp_t>::min() / 2;
    bool all_underflowed = true, all_tiny = true;
    for (const MaxAndRest& row : rests) {
      MpValue R(p);
      sum_of_exps(R.get(), row.d);
      const bool underflowed =
          mpfr_zero_p(R.get()) || mpfr_get_exp(R.get()) < -(mpfr_exp_t{1} << 30);
      all_underflowed = all_underflowed && underflowed;
      all_tiny = all_tiny && (underflowed || mpfr_get_exp(R.get()) <= -701);
      L.emplace_back(p);
      mpfr_log1p(L.back().get(), R.get(), MPFR_RNDN);
      terms.push_back(L.back().get());
      m_rows = std::max(
          m_rows, underflowed
                      ? 2 - (mpfr_exp_t{1} << 30) + p
                      : std::max(mpfr_get_exp(R.get()) + 2, mpfr_get_exp(L.back().get()) - 1) + 1);
    }
    if (q_zero && all_underflowed) return ExactElement{0.0f, 0.0, kZeroBinade};
    if (!q_zero && all_tiny) {
      MpValue w(1024);
      if (mpfr_div(w.get(), K.get(), N.get(), MPFR_RNDU) == 0) mpfr_nextabove(w.get());
      return exact_element(w.get(), out);
    }
    // Lsum' = sum_i L_i' rounded once (mpfr_sum), A' = Lsum' / c' rounded, Q' = Ktot / N
    // rounded, t = A' + Q' rounded: four more terms, each at most 2^(E - 1 - p) for the E of its
    // result. With the rows' (the division by c' >= 1 only shrinks it), five terms each at most
    // 2^(M - p): err < 2^(M + 3 - p).
    MpValue Lsum(p), A(p), Q(p), t(p);
    mpfr_sum(Lsum.get(), terms.data(), terms.size(), MPFR_RNDN);
    mpfr_div_ui(A.get(), Lsum.get(), divisor, MPFR_RNDN);
    mpfr_div(Q.get(), K.get(), N.get(), MPFR_RNDN);
    mpfr_add(t.get(), A.get(), Q.get(), MPFR_RNDN);  // > 0: some row is not underflowed here
    // Q = 0 and t below 2^-2^29: V < 2 t rounds to +0 everywhere (t's error is far below t).
    if (q_zero && mpfr_get_exp(t.get()) < -(mpfr_exp_t{1} << 29))
      return ExactElement{0.0f, 0.0, kZeroBinade};
    mpfr_exp_t M = std::max({m_rows + ceil_log2(rests.size()), mpfr_get_exp(Lsum.get()) - 1,
                             mpfr_get_exp(A.get()) - 1, mpfr_get_exp(t.get()) - 1});
    if (!q_zero) M = std::max(M, mpfr_get_exp(Q.get()) - 1);
    if (const auto decided_value = ziv_decided(t.get(), M + 3 - p, out)) return *decided_value;
  }
  throw std::runtime_error(
      "cross_entropy reference: a rounding is undecided at 8192 bits (an output within 2^-8000 "
      "of a rounding boundary)");
}

ExactElement cross_entropy_reference(std::span<const float> x, std::int64_t target,
                                     std::int64_t ignore_index, float label_smoothing, DType out) {
  if (target == ignore_index) return ieee_element(0.0, out);
  const std::int64_t targets[] = {target};
  return cross_entropy_batch_reference({x}, targets, ignore_index, label_smoothing,
                                       BatchReduction::Sum, out);
}

}  // namespace osvs::oracle
