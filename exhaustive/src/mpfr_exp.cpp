// The exact b^x from MPFR: the fast path's fallback, and the cross-check of its decisions.
//
// At precision p, y_z = RNDZ(b^x) with MPFR's ternary value t: t == 0 means y_z = b^x exactly (only
// 2^k for an integer k here; e^x is transcendental for x != 0); otherwise b^x lies strictly between
// y_z and its successor y_z+. MPFR's mpfr_get_flt rounds correctly to float (subnormals and the
// overflow to inf included) and monotonically, so when y_z and y_z+ round to the same float, so
// does b^x. RNDZ never leaves the binade of b^x (2^b is representable), so y_z's exponent is
// b^x's. Undecided cases double the precision (Ziv); b^x is never a float midpoint (irrational for
// a non-integer x, a power of two for an integer one), so the loop ends.
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "mpfr_thread_caches.h"
#include "mpfr_value.h"
#include "osvs/exhaustive/exact_exp.h"
#include "osvs/kernels/hex.h"
#include "special_exp.h"

namespace osvs::exhaustive {
namespace {

using oracle::detail::MpValue;  // an mpfr_t that frees itself

/// RNDZ(b^x) at the precision of y; returns MPFR's ternary value.
int power(mpfr_ptr y, float x, ExpBase base) {
  MpValue xm(24);
  mpfr_set_flt(xm.get(), x, MPFR_RNDN);  // exact
  return base == ExpBase::E ? mpfr_exp(y, xm.get(), MPFR_RNDZ) : mpfr_exp2(y, xm.get(), MPFR_RNDZ);
}

int binade_of_mpfr(mpfr_srcptr y) {
  return std::max(static_cast<int>(mpfr_get_exp(y)) - 1,
                  detail::kLowestBinade);  // y in [2^(e-1), 2^e)
}

}  // namespace

ExactExp mpfr_exact_exp(float x, ExpBase base) {
  if (const auto special = detail::special_exp(x)) return *special;
  oracle::detail::free_mpfr_caches_at_thread_exit();
  for (mpfr_prec_t bits = 200; bits <= 3200; bits *= 2) {
    MpValue y(bits);
    const int ternary = power(y.get(), x, base);
    if (mpfr_inf_p(y.get())) return detail::expected_infinity();  // beyond MPFR's exponent range
    if (mpfr_zero_p(y.get())) return detail::exactly(0.0f, detail::kLowestBinade);  // below it
    const float rounded = mpfr_get_flt(y.get(), MPFR_RNDN);
    if (ternary != 0) {
      MpValue above(bits);
      mpfr_set(above.get(), y.get(), MPFR_RNDN);
      mpfr_nextabove(above.get());
      if (mpfr_get_flt(above.get(), MPFR_RNDN) != rounded) continue;
    }
    if (std::isinf(rounded)) return detail::expected_infinity();
    ExactExp r;
    r.rounded = rounded;
    r.binade = binade_of_mpfr(y.get());
    // mpfr_get_d rounds once (2^-53 relative: 2^-29 ulp of the float); into_binade moves toward y.
    r.approx = detail::into_binade(mpfr_get_d(y.get(), MPFR_RNDN), r.binade);
    r.uncertainty = ternary == 0 ? 0 : 0x1p-28;
    r.from_mpfr = true;
    return r;
  }
  throw std::runtime_error(std::string("mpfr_exact_exp: ") + to_string(base) + "(" + hex(x) +
                           ") undecided at 3200 bits");
}

double mpfr_ulp_distance(float observed, float x, ExpBase base) {
  oracle::detail::free_mpfr_caches_at_thread_exit();
  const ExactExp ref = mpfr_exact_exp(x, base);
  if (ref.nan || std::isinf(ref.rounded) || !std::isfinite(observed))
    return ulp_distance(observed, ref);
  MpValue y(256), d(256);
  power(y.get(), x, base);  // within 2^-255 relative: below 2^-230 ulp
  mpfr_set_flt(d.get(), observed, MPFR_RNDN);
  mpfr_sub(d.get(), d.get(), y.get(), MPFR_RNDN);
  mpfr_abs(d.get(), d.get(), MPFR_RNDN);
  mpfr_mul_2si(d.get(), d.get(), 23 - ref.binade, MPFR_RNDN);  // / ulp = 2^(binade - 23)
  return mpfr_get_d(d.get(), MPFR_RNDN);
}

}  // namespace osvs::exhaustive
