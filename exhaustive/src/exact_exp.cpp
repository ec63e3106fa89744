// The certified fast path for the exact b^x of a float x.
//
// Error analysis (R = kLibmPremiseRel = 2^-40, A = kLibmPremiseAbs = 2^-1000, y = b^x exact):
//   xd = x                       exact (every float is a double)
//   e  = exp(xd) or exp2(xd)     premise: |e - y| <= R y + A  (glibc documents 1 ulp = 2^-52 y;
//                                subnormal doubles and underflow to 0 stay within A; e = inf only
//                                for y > 2^1023, far beyond the float overflow threshold)
//   so y lies in [(e - A) / (1 + R), (e + A) / (1 - R)], which contains the real interval
//   [(e - A)(1 - R), (e + A)(1 + 2R)]. Computed in double, lo = fl(fl(e - A)(1 - 2R)) and
//   hi = fl(fl(e + A)(1 + 4R)) each round twice (2^-53 relative each, far below the extra R), so
//   lo <= (e - A)(1 - R) and hi >= (e + A)(1 + 2R): y is in [lo, hi] (lo clamped at 0, y > 0).
//   Rounding to float (double -> float conversion: correctly rounded, monotone, subnormals and
//   the overflow to inf of IEEE 754 included) takes every real of [lo, hi] to one float when it
//   takes lo and hi to the same one: that float is y's correct rounding. Likewise y's binade
//   max(floor(log2 y), -126) is decided when lo and hi share it.
//   Distance: approx = e moved into that binade (never further from y), so |approx - y| <=
//   R y + A < (R 2^24 + A 2^149) ulp(y) < 2^-15.9 ulp; the double subtraction in ulp_distance
//   adds 2^-53 of the distance (< 2^-23 ulp below 2^30 ulp). uncertainty = 2^-15.
// An interval that straddles a float rounding boundary or a power of two goes to MPFR: about
// 2 (R + 2^-53) 2^24 of the inputs, i.e. one in 2^15, and every |x| below about R, whose b^x is
// within R of 1. Those (a third of all bit patterns) are decided without the libm instead:
//   |x| < 2^-30, t = x c (c = 1 for e, ln 2 for 2): b^x = e^t = 1 + t + th t^2, 0 <= th <= 1, so
//   b^x lies in (1, 1 + 2^-29) for x > 0 (binade 0) and in (1 - 2^-29, 1) for x < 0 (binade -1):
//   both round to 1 (the midpoints next to 1 are 1 + 2^-24 and 1 - 2^-25). approx = fl(1 + fl(t))
//   is within 2^-53 + 2^-53 + t^2 < 2^-51.9 of b^x: below 2^-27.9 ulp (ulp 2^-24 in binade -1).
#include <cmath>

#include "osvs/exhaustive/exact_exp.h"
#include "osvs/oracle/ulp.h"
#include "special_exp.h"

namespace osvs::exhaustive {

const char* to_string(ExpBase base) {
  return base == ExpBase::E ? "exp" : "exp2";
}

namespace {

ExactExp near_one(float x, ExpBase base) {
  const double t = base == ExpBase::E ? x : x * 0x1.62e42fefa39efp-1;  // ln 2
  ExactExp r;
  r.rounded = 1.0f;
  r.binade = x > 0 ? 0 : -1;
  r.approx = detail::into_binade(1 + t, r.binade);
  r.uncertainty = 0x1p-27;
  return r;
}

}  // namespace

ExactExp exact_exp(float x, ExpBase base) {
  if (const auto special = detail::special_exp(x)) return *special;
  if (std::fabs(x) < 0x1p-30f) return near_one(x, base);
  const double xd = x;
  const double e = base == ExpBase::E ? std::exp(xd) : std::exp2(xd);
  const double lo = std::fmax((e - kLibmPremiseAbs) * (1 - 2 * kLibmPremiseRel), 0.0);
  const double hi = (e + kLibmPremiseAbs) * (1 + 4 * kLibmPremiseRel);
  const float rounded = static_cast<float>(lo);
  if (rounded != static_cast<float>(hi)) return mpfr_exact_exp(x, base);
  if (std::isinf(rounded)) return detail::expected_infinity();  // y >= lo >= overflow threshold
  const int binade = oracle::binade_of(lo);
  if (binade != oracle::binade_of(hi)) return mpfr_exact_exp(x, base);
  ExactExp r;
  r.rounded = rounded;
  r.binade = binade;
  r.approx = detail::into_binade(e, binade);
  r.uncertainty = 0x1p-15;
  return r;
}

double ulp_distance(float observed, const ExactExp& ref) {
  const double inf = INFINITY;
  if (ref.nan) return std::isnan(observed) ? 0 : inf;
  return oracle::ulp_distance(observed, ref.approx, ref.binade);
}

}  // namespace osvs::exhaustive
