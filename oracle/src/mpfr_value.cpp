// The correct rounding of an MPFR value to an output type, the element of an exact value and
// the Ziv decision of one that is not exact (mpfr_value.h): the attention reference's, the
// softmax backward references' and the row reductions'.
#include "mpfr_value.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace osvs::oracle {
namespace detail {

float round_to_type(mpfr_srcptr x, DType t) {
  if (mpfr_nan_p(x)) return std::numeric_limits<float>::quiet_NaN();
  if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? INFINITY : -INFINITY;
  if (mpfr_zero_p(x)) return mpfr_signbit(x) ? -0.0f : 0.0f;
  const long p = precision_of(t);
  const long binade = mpfr_get_exp(x) - 1;  // x = 1.f... 2^binade
  const long q = std::max(binade, static_cast<long>(min_exponent_of(t))) - (p - 1);
  MpValue scaled(mpfr_get_prec(x));
  mpfr_mul_2si(scaled.get(), x, -q, MPFR_RNDN);  // exact
  MpValue integer(static_cast<mpfr_prec_t>(p + 2));
  mpfr_rint(integer.get(), scaled.get(), MPFR_RNDN);  // |X| <= 2^p: exact in p + 2 bits
  mpfr_mul_2si(integer.get(), integer.get(), q, MPFR_RNDN);
  const float r = mpfr_get_flt(integer.get(), MPFR_RNDN);  // exact, or +-inf past float's range
  if (std::fabs(r) > max_finite_of(t)) return r > 0 ? INFINITY : -INFINITY;
  return r;
}

std::optional<float> decided(mpfr_srcptr x, mpfr_srcptr err, DType t) {
  const mpfr_prec_t p = mpfr_get_prec(x) + 8;
  MpValue lo(p), hi(p);
  mpfr_sub(lo.get(), x, err, MPFR_RNDD);
  mpfr_add(hi.get(), x, err, MPFR_RNDU);
  const float a = round_to_type(lo.get(), t), b = round_to_type(hi.get(), t);
  if (!(a == b)) return std::nullopt;
  return round_to_type(x, t);
}

ExactElement exact_element(mpfr_srcptr x, DType out) {
  ExactElement e;
  e.rounded = round_to_type(x, out);
  e.value = mpfr_get_d(x, MPFR_RNDN);
  e.binade = mpfr_regular_p(x) ? static_cast<int>(mpfr_get_exp(x) - 1) : kZeroBinade;
  return e;
}

ExactElement ieee_element(double v, DType out) {
  ExactElement e;
  e.rounded = round_to(out, static_cast<float>(v));
  e.value = v;
  e.binade = kZeroBinade;
  return e;
}

std::optional<ExactElement> ziv_decided(mpfr_srcptr t, mpfr_exp_t err_exp, DType out,
                                        ZivValue value) {
  if (mpfr_zero_p(t) || err_exp > mpfr_get_exp(t) - 60) return std::nullopt;
  MpValue err(32);
  mpfr_set_ui_2exp(err.get(), 1, err_exp, MPFR_RNDN);
  MpValue lo(mpfr_get_prec(t) + 8), hi(mpfr_get_prec(t) + 8);
  mpfr_sub(lo.get(), t, err.get(), MPFR_RNDD);
  mpfr_add(hi.get(), t, err.get(), MPFR_RNDU);
  if (mpfr_sgn(lo.get()) != mpfr_sgn(hi.get()) || mpfr_get_exp(lo.get()) != mpfr_get_exp(hi.get()))
    return std::nullopt;
  if (value == ZivValue::RoundedOnce &&
      mpfr_get_d(lo.get(), MPFR_RNDN) != mpfr_get_d(hi.get(), MPFR_RNDN))
    return std::nullopt;
  const auto rounded = decided(t, err.get(), out);
  if (!rounded) return std::nullopt;
  ExactElement e = exact_element(t, out);
  e.rounded = *rounded;
  return e;
}

}  // namespace detail

}  // namespace osvs::oracle
