// The exact softmax and log-softmax backward (osvs/oracle/softmax_backward_reference.h).
//
// Softmax backward is rational in its inputs, and computed exactly. Every finite float is
// k 2^e with |k| < 2^24 and -149 <= e <= 104, so y_j dy_j is a multiple of 2^-298 below 2^256:
// the sum s of n < 2^32 of them is a multiple of 2^-298 below 2^288, exact at 640 bits (the
// 298 + 288 bits of its range and a margin); dy_i - s likewise; y_i (dy_i - s), 24 bits times
// 640, is exact at 680. The exact dx_i is then rounded once (round_to_type).
//
// Log-softmax backward: S = sum_j dy_j, a multiple of 2^-149 below 2^160, is exact at 320 bits.
// dx_i = dy_i - exp(z_i) S is exact where z_i = 0 (exp(0) = 1), S = 0 or z_i = -inf; otherwise
// exp(z_i) is irrational (z_i is a non-zero rational: Lindemann), so dx_i is irrational and lies
// at a positive distance from every rounding boundary and from every power of two. Ziv's method
// decides it: at precision p, e = exp(z_i) and P = e S, each rounded to nearest, carry
// |P - exp(z_i) S| <= |P| (2^(1-p) + 2^-2p) / (1 - 2^(1-p)) <= 2^(EXP(P) + 2 - p) (MPFR's
// EXP(x): |x| < 2^EXP(x)); t = dy_i - P rounded to nearest adds at most 2^(EXP(t) - p). So the
// exact dx_i lies within err = 2^(max(EXP(P) + 2, EXP(t)) - p + 1) of t; it is decided when both
// ends of [t - err, t + err] round to the same value of the output type and lie in one binade
// (the binade the ulp is taken in), and err <= 2^(EXP(t) - 60) (the double `value` then has a
// relative error below 2^-53 + 2^-59). Otherwise p doubles, up to 8192 bits.
//
// Exponent range: MPFR's widest (mpfr_get_emin_min ... emax_max) while the reference runs. exp
// underflows there only for z_i < -3e18: dx_i = dy_i - sign(S) tiny, which rounds as the
// neighbour of dy_i at 128 bits toward -sign(S) does (no rounding boundary of a 24-bit type lies
// between them), or to -sign(S) 0 when dy_i = 0. exp overflows (z_i > 3e18) to |dx_i| past every
// type's range: -sign(S) inf.
#include "osvs/oracle/softmax_backward_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "mpfr_value.h"
#include "widest_exponents.h"

namespace osvs::oracle {
namespace {

using detail::exact_element;
using detail::ieee_element;
using detail::MpValue;
using detail::round_to_type;
using detail::WidestExponents;

constexpr mpfr_prec_t kProductSumBits = 640;
constexpr mpfr_prec_t kGradientBits = 680;
constexpr mpfr_prec_t kFloatSumBits = 320;

bool all_finite(std::span<const float> v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

void check_lengths(std::span<const float> a, std::span<const float> dy) {
  if (a.size() != dy.size()) throw std::invalid_argument("backward reference: rows of two lengths");
}

/// The decided rounding of exp(z) S subtracted from dy (z finite and non-zero, S != 0 exact).
ExactElement ziv_element(float z, float dy, mpfr_srcptr S, DType out) {
  for (mpfr_prec_t p : detail::kZivBits) {
    MpValue e(p), P(p), t(p);
    mpfr_set_flt(e.get(), z, MPFR_RNDN);  // exact: p >= 24
    mpfr_exp(e.get(), e.get(), MPFR_RNDN);
    if (mpfr_inf_p(e.get())) {
      const double inf = mpfr_sgn(S) > 0 ? -INFINITY : INFINITY;
      return ieee_element(inf, out);
    }
    // dx = dy - sign(S) tiny, with dy != 0 a float and 0 < |P| < 2^(EXP(dy) - 129): dx lies
    // strictly between dy and dy's 128-bit neighbour towards -sign(S) (2^(EXP(dy) - 129) away
    // at least, at a power of two), where no number of at most 127 significant bits lies (no
    // rounding boundary of any type or of double, no power of two), so it rounds as that
    // neighbour does and has its binade. Ziv could never decide it: at every precision up to
    // 8192 bits dy - P rounds to dy itself, and at a power of two that straddles the binade.
    const auto beside_dy = [&] {
      MpValue near(128);
      mpfr_set_flt(near.get(), dy, MPFR_RNDN);
      if (mpfr_sgn(S) > 0)
        mpfr_nextbelow(near.get());
      else
        mpfr_nextabove(near.get());
      return exact_element(near.get(), out);
    };
    if (mpfr_zero_p(e.get())) {  // exp(z) underflowed
      if (dy == 0) return ieee_element(mpfr_sgn(S) > 0 ? -0.0 : 0.0, out);
      return beside_dy();
    }
    mpfr_mul(P.get(), e.get(), S, MPFR_RNDN);
    // |P| <= 2^EXP(P) (1 + 2^-p) < 2^(EXP(dy) - 129) where EXP(P) <= EXP(dy) - 131.
    if (dy != 0 && mpfr_get_exp(P.get()) <= std::ilogb(dy) + 1 - 131) return beside_dy();
    mpfr_d_sub(t.get(), dy, P.get(), MPFR_RNDN);
    if (mpfr_zero_p(t.get())) continue;  // |dx| below the error: a higher precision
    const mpfr_exp_t scale = std::max(mpfr_get_exp(P.get()) + 2, mpfr_get_exp(t.get())) - p + 1;
    if (const auto x = detail::ziv_decided(t.get(), scale, out, detail::ZivValue::Near)) return *x;
  }
  throw std::runtime_error(
      "log-softmax backward reference: a rounding is undecided at 8192 bits (an output within "
      "2^-8000 of a rounding boundary)");
}

}  // namespace

std::vector<ExactElement> softmax_backward_reference(std::span<const float> y,
                                                     std::span<const float> dy, DType out) {
  check_lengths(y, dy);
  const std::size_t n = y.size();
  std::vector<ExactElement> dx(n);
  if (!all_finite(y) || !all_finite(dy)) {
    // The row term is NaN or infinite (a non-finite input meets a zero, another infinity, or
    // nothing that can cancel it), and with it every dx_i: its class is the IEEE one.
    double s = 0;
    for (std::size_t j = 0; j < n; ++j) s += static_cast<double>(y[j]) * static_cast<double>(dy[j]);
    for (std::size_t i = 0; i < n; ++i)
      dx[i] = ieee_element(static_cast<double>(y[i]) * (static_cast<double>(dy[i]) - s), out);
    return dx;
  }
  const WidestExponents range;
  MpValue s(kProductSumBits), term(kProductSumBits), diff(kProductSumBits), grad(kGradientBits);
  mpfr_set_zero(s.get(), 1);
  for (std::size_t j = 0; j < n; ++j) {
    mpfr_set_flt(term.get(), y[j], MPFR_RNDN);
    mpfr_mul_d(term.get(), term.get(), dy[j], MPFR_RNDN);  // exact (above)
    mpfr_add(s.get(), s.get(), term.get(), MPFR_RNDN);     // exact
  }
  for (std::size_t i = 0; i < n; ++i) {
    mpfr_d_sub(diff.get(), dy[i], s.get(), MPFR_RNDN);    // exact
    mpfr_mul_d(grad.get(), diff.get(), y[i], MPFR_RNDN);  // exact
    dx[i] = exact_element(grad.get(), out);
  }
  return dx;
}

std::vector<ExactElement> log_softmax_backward_reference(std::span<const float> z,
                                                         std::span<const float> dy, DType out) {
  check_lengths(z, dy);
  const std::size_t n = z.size();
  std::vector<ExactElement> dx(n);
  const WidestExponents range;
  const bool finite_dy = all_finite(dy);
  MpValue S(kFloatSumBits), exact(kFloatSumBits);
  mpfr_set_zero(S.get(), 1);
  double S_ieee = 0;  // the class of S where a dy is not finite
  for (float d : dy) {
    if (finite_dy) mpfr_add_d(S.get(), S.get(), d, MPFR_RNDN);  // exact (above)
    S_ieee += static_cast<double>(d);
  }
  if (finite_dy) S_ieee = mpfr_get_d(S.get(), MPFR_RNDN);  // S's sign, 0 only for S = 0
  for (std::size_t i = 0; i < n; ++i) {
    if (!finite_dy || !std::isfinite(z[i])) {
      const double v = static_cast<double>(dy[i]) - std::exp(static_cast<double>(z[i])) * S_ieee;
      if (!std::isfinite(v) || !finite_dy) {
        dx[i] = ieee_element(v, out);
        continue;
      }
      // z_i = -inf with a finite S: exp(z_i) S = 0 and dx_i = dy_i exactly.
      mpfr_set_flt(exact.get(), dy[i], MPFR_RNDN);
      dx[i] = exact_element(exact.get(), out);
    } else if (z[i] == 0) {                                // exp(0) = 1
      mpfr_d_sub(exact.get(), dy[i], S.get(), MPFR_RNDN);  // exact (above)
      dx[i] = exact_element(exact.get(), out);
    } else if (mpfr_zero_p(S.get())) {  // dx_i = dy_i
      mpfr_set_flt(exact.get(), dy[i], MPFR_RNDN);
      dx[i] = exact_element(exact.get(), out);
    } else {
      dx[i] = ziv_element(z[i], dy[i], S.get(), out);
    }
  }
  return dx;
}

}  // namespace osvs::oracle
