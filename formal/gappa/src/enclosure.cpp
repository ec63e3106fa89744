#include "osvs/formal/gappa/enclosure.h"

#include <mpfr.h>

#include <string>

namespace osvs::formal::gappa {
namespace {

constexpr mpfr_prec_t kBits = 256;

/// An MPFR number at kBits, freed on scope exit.
struct Real {
  mpfr_t v;
  Real() { mpfr_init2(v, kBits); }
  ~Real() { mpfr_clear(v); }
  Real(const Real&) = delete;
  Real& operator=(const Real&) = delete;
};

std::string text(const Real& r) {
  if (mpfr_zero_p(r.v)) return "0";
  char* s = nullptr;
  mpfr_asprintf(&s, "%Ra", r.v);  // exact: every bit of the significand
  std::string out(s);
  mpfr_free_str(s);
  return out;
}

/// g = a - b exactly (two floats: 256 bits hold any difference).
void difference(Real& g, float a, float b) {
  Real rb;
  mpfr_set_flt(g.v, a, MPFR_RNDN);
  mpfr_set_flt(rb.v, b, MPFR_RNDN);
  mpfr_sub(g.v, g.v, rb.v, MPFR_RNDN);
}

}  // namespace

Interval exp_of_difference(float a, float b) {
  Real g, lo, hi;
  difference(g, a, b);
  mpfr_exp(lo.v, g.v, MPFR_RNDD);
  mpfr_exp(hi.v, g.v, MPFR_RNDU);
  return {text(lo), text(hi)};
}

std::string scaled_gap(float a, float b, double c) {
  Real g;
  difference(g, a, b);
  mpfr_abs(g.v, g.v, MPFR_RNDN);
  mpfr_mul_d(g.v, g.v, c, MPFR_RNDN);  // exact: c is a power of two
  return text(g);
}

Interval expm1_of_argument_error(float a, float b, double c) {
  Real x, lo, hi;
  difference(x, a, b);
  mpfr_abs(x.v, x.v, MPFR_RNDN);
  mpfr_mul_d(x.v, x.v, c, MPFR_RNDN);
  mpfr_expm1(hi.v, x.v, MPFR_RNDU);
  mpfr_neg(x.v, x.v, MPFR_RNDN);
  mpfr_expm1(lo.v, x.v, MPFR_RNDD);
  return {text(lo), text(hi)};
}

}  // namespace osvs::formal::gappa
