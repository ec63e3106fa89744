// Interval arithmetic over MPFR (mp_interval.h).
#include "mp_interval.h"

#include <stdexcept>

namespace osvs::oracle::detail {

MpInterval::MpInterval(mpfr_prec_t precision)
    : lo_(precision), hi_(precision), scratch_(precision) {
  mpfr_set_zero(lo_.get(), 1);
  mpfr_set_zero(hi_.get(), 1);
}

void MpInterval::set(mpfr_srcptr x) {
  mpfr_set(lo_.get(), x, MPFR_RNDD);
  mpfr_set(hi_.get(), x, MPFR_RNDU);
}

void MpInterval::set(double x) {
  mpfr_set_d(lo_.get(), x, MPFR_RNDD);
  mpfr_set_d(hi_.get(), x, MPFR_RNDU);
}

void MpInterval::add(const MpInterval& a, const MpInterval& b) {
  mpfr_add(lo_.get(), a.lo(), b.lo(), MPFR_RNDD);
  mpfr_add(hi_.get(), a.hi(), b.hi(), MPFR_RNDU);
}

void MpInterval::sub(const MpInterval& a, const MpInterval& b) {
  // (b's lower end read before this interval's is written: b may be this one)
  mpfr_sub(scratch_.get(), a.lo(), b.hi(), MPFR_RNDD);
  mpfr_sub(hi_.get(), a.hi(), b.lo(), MPFR_RNDU);
  mpfr_swap(lo_.get(), scratch_.get());
}

void MpInterval::mul(const MpInterval& a, const MpInterval& b) {
  const mpfr_prec_t p = mpfr_get_prec(lo_.get());
  MpValue lo(p), hi(p), t(p);
  mpfr_srcptr as[] = {a.lo(), a.hi()}, bs[] = {b.lo(), b.hi()};
  bool first = true;
  for (mpfr_srcptr x : as)
    for (mpfr_srcptr y : bs) {
      mpfr_mul(t.get(), x, y, MPFR_RNDD);
      if (first || mpfr_less_p(t.get(), lo.get())) mpfr_set(lo.get(), t.get(), MPFR_RNDD);
      mpfr_mul(t.get(), x, y, MPFR_RNDU);
      if (first || mpfr_greater_p(t.get(), hi.get())) mpfr_set(hi.get(), t.get(), MPFR_RNDU);
      first = false;
    }
  mpfr_swap(lo_.get(), lo.get());
  mpfr_swap(hi_.get(), hi.get());
}

void MpInterval::mul(const MpInterval& a, double c) {
  if (c >= 0) {
    mpfr_mul_d(lo_.get(), a.lo(), c, MPFR_RNDD);
    mpfr_mul_d(hi_.get(), a.hi(), c, MPFR_RNDU);
  } else {
    mpfr_mul_d(scratch_.get(), a.hi(), c, MPFR_RNDD);
    mpfr_mul_d(hi_.get(), a.lo(), c, MPFR_RNDU);
    mpfr_swap(lo_.get(), scratch_.get());
  }
}

void MpInterval::div(const MpInterval& a, const MpInterval& b) {
  if (!b.positive()) throw std::logic_error("interval division by a divisor that is not positive");
  // lo = a.lo / (b.hi when a.lo >= 0, else b.lo); hi = a.hi / (b.lo when a.hi >= 0, else b.hi)
  mpfr_div(scratch_.get(), a.lo(), mpfr_sgn(a.lo()) >= 0 ? b.hi() : b.lo(), MPFR_RNDD);
  mpfr_div(hi_.get(), a.hi(), mpfr_sgn(a.hi()) >= 0 ? b.lo() : b.hi(), MPFR_RNDU);
  mpfr_swap(lo_.get(), scratch_.get());
}

void MpInterval::div(const MpInterval& a, double c) {
  mpfr_div_d(lo_.get(), a.lo(), c, MPFR_RNDD);
  mpfr_div_d(hi_.get(), a.hi(), c, MPFR_RNDU);
}

void MpInterval::square(const MpInterval& a) {
  if (mpfr_sgn(a.lo()) >= 0) {  // [lo^2, hi^2]
    mpfr_sqr(lo_.get(), a.lo(), MPFR_RNDD);
    mpfr_sqr(hi_.get(), a.hi(), MPFR_RNDU);
  } else if (mpfr_sgn(a.hi()) <= 0) {  // [hi^2, lo^2]
    mpfr_sqr(scratch_.get(), a.hi(), MPFR_RNDD);
    mpfr_sqr(hi_.get(), a.lo(), MPFR_RNDU);
    mpfr_swap(lo_.get(), scratch_.get());
  } else {  // [0, max(lo^2, hi^2)]
    mpfr_sqr(scratch_.get(), a.lo(), MPFR_RNDU);
    mpfr_sqr(hi_.get(), a.hi(), MPFR_RNDU);
    mpfr_max(hi_.get(), hi_.get(), scratch_.get(), MPFR_RNDU);
    mpfr_set_zero(lo_.get(), 1);
  }
}

void MpInterval::exp(const MpInterval& a) {
  mpfr_exp(lo_.get(), a.lo(), MPFR_RNDD);
  mpfr_exp(hi_.get(), a.hi(), MPFR_RNDU);
}

void MpInterval::tanh(const MpInterval& a) {
  mpfr_tanh(lo_.get(), a.lo(), MPFR_RNDD);
  mpfr_tanh(hi_.get(), a.hi(), MPFR_RNDU);
}

bool MpInterval::within(double bound) const {
  return mpfr_cmp_d(lo_.get(), -bound) >= 0 && mpfr_cmp_d(hi_.get(), bound) <= 0;
}

double MpInterval::radius() const {
  MpValue r(mpfr_get_prec(lo_.get()));
  mpfr_sub(r.get(), hi_.get(), lo_.get(), MPFR_RNDU);
  mpfr_div_2ui(r.get(), r.get(), 1, MPFR_RNDU);
  return mpfr_get_d(r.get(), MPFR_RNDU);
}

double MpInterval::lower() const {
  return mpfr_get_d(lo_.get(), MPFR_RNDD);
}

double MpInterval::middle() const {
  MpValue m(mpfr_get_prec(lo_.get()) + 1);
  // Rounded, the sum stays in [2 lo, 2 hi] (both ends representable, rounding monotone).
  mpfr_add(m.get(), lo_.get(), hi_.get(), MPFR_RNDN);
  mpfr_div_2ui(m.get(), m.get(), 1, MPFR_RNDN);
  return mpfr_get_d(m.get(), MPFR_RNDN);
}

}  // namespace osvs::oracle::detail
