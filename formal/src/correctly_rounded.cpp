#include "osvs/formal/correctly_rounded.h"

#include <mpfr.h>

#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "osvs/formal/exp_facts.h"
#include "osvs/kernels/hex.h"

namespace osvs::formal {
namespace {

// log_b(x) rounded once to 24 bits. MPFR rounds correctly in its own exponent range, which
// contains binary32's normal range, so the float is binary32's correct rounding wherever the
// result is 0 (exact, x = 1) or normal; the caller is refused otherwise.
float mpfr_log(float x, bool base2) {
  if (!(x > 0.0f) || std::isinf(x))
    throw std::invalid_argument("osvs::formal: no fact of log at " + hex(x));
  mpfr_t in, out;
  mpfr_init2(in, 24);
  mpfr_init2(out, 24);
  mpfr_set_flt(in, x, MPFR_RNDN);  // exact: 24 bits hold every float
  if (base2)
    mpfr_log2(out, in, MPFR_RNDN);
  else
    mpfr_log(out, in, MPFR_RNDN);
  const float r = mpfr_get_flt(out, MPFR_RNDN);  // exact: out has 24 bits
  mpfr_clear(in);
  mpfr_clear(out);
  if (r != 0.0f && !(std::fabs(r) >= FLT_MIN && std::fabs(r) <= FLT_MAX))
    throw std::invalid_argument("osvs::formal: log at " + hex(x) + " is not normal");
  return r;
}

// f(x) (exp, exp2, log or log2) rounded to the format (rounded_in_format).
float mpfr_in(const std::string& function, float x, const Format& f) {
  if (std::isnan(x)) return x;
  return rounded_in_format(f, [&](mpfr_ptr out, mpfr_rnd_t rnd) {
    mpfr_t in;
    mpfr_init2(in, 24);
    mpfr_set_flt(in, x, MPFR_RNDN);  // exact
    int inexact = 0;
    if (function == "exp")
      inexact = mpfr_exp(out, in, rnd);
    else if (function == "exp2")
      inexact = mpfr_exp2(out, in, rnd);
    else if (function == "log")
      inexact = mpfr_log(out, in, rnd);
    else
      inexact = mpfr_log2(out, in, rnd);
    mpfr_clear(in);
    return inexact;
  });
}

}  // namespace

float rounded_in_format(const Format& f,
                        const std::function<int(mpfr_ptr out, mpfr_rnd_t rounding)>& compute) {
  // The format's exponent range in MPFR's convention (0.5 <= |significand| < 1), its subnormals
  // by mpfr_subnormalize: the recipe of MPFR's manual for an IEEE format (binary64: emin -1073,
  // emax 1024).
  const mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
  const long half = 1L << (f.ebits - 1);
  mpfr_set_emin(-half + 4 - static_cast<long>(f.sbits));
  mpfr_set_emax(half);
  mpfr_t out;
  mpfr_init2(out, f.sbits);
  int inexact = compute(out, MPFR_RNDN);
  inexact = mpfr_check_range(out, inexact, MPFR_RNDN);
  mpfr_subnormalize(out, inexact, MPFR_RNDN);
  const float r = mpfr_get_flt(out, MPFR_RNDN);  // exact: every value of the format is a float
  mpfr_clear(out);
  mpfr_set_emin(old_emin);
  mpfr_set_emax(old_emax);
  return r;
}

float correctly_rounded(const std::string& function, float x, const Format& format) {
  if (format.is_f32()) return correctly_rounded(function, x);
  if (function != "exp" && function != "exp2" && function != "log" && function != "log2")
    throw std::invalid_argument("osvs::formal: no " + function + " in " + format.name);
  if ((function == "log" || function == "log2") && !(x > 0.0f && std::isfinite(x)))
    throw std::invalid_argument("osvs::formal: no fact of " + function + " at " + hex(x));
  return mpfr_in(function, x, format);
}

float correctly_rounded(const std::string& function, float x) {
  if (function == "log") return mpfr_log(x, false);
  if (function == "log2") return mpfr_log(x, true);
  return exhaustive::exact_exp(x, base_of(function)).rounded;  // base_of throws for another name
}

}  // namespace osvs::formal
