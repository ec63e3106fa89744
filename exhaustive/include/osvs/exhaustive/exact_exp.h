// What is known of the exact b^x (b = e or 2) for one binary32 input: its correct rounding to
// float, the binade the ULP metric uses (docs/semantics.md §4) and a double close enough to measure
// distances in ulps. A certified double fast path decides almost every input; MPFR decides the
// rest.
#pragma once

#include <cstdint>

namespace osvs::exhaustive {

enum class ExpBase { E, Two };

const char* to_string(ExpBase base);

/// The exact b^x, known well enough to measure a float against it.
struct ExactExp {
  float rounded = 0;       ///< b^x correctly rounded to float (to nearest even; 0 and inf included)
  int binade = -126;       ///< max(floor(log2 b^x), -126), exact; meaningless when rounded is inf
  double approx = 0;       ///< a double in that binade with |approx - b^x| / ulp <= uncertainty
  double uncertainty = 0;  ///< ulps by which a distance measured against approx may be off
  bool nan = false;        ///< the input is NaN: only a NaN matches
  bool from_mpfr = false;  ///< the fast path could not decide; MPFR did
};

/// The fast path's premise about the host libm (glibc exp / exp2 of a double): an error within
/// kLibmPremiseRel relative plus kLibmPremiseAbs absolute. glibc documents 1 ulp (2^-52
/// relative); the premise is 2^12 times wider, so that only a gross libm defect could break it,
/// and osvs_exp_check --double measures the real error against MPFR (reports/exp/).
inline constexpr double kLibmPremiseRel = 0x1p-40;
inline constexpr double kLibmPremiseAbs = 0x1p-1000;

/// b^x for any float x (NaN, infinities, zeros, overflow and underflow included).
ExactExp exact_exp(float x, ExpBase base);

/// The same from MPFR alone (Ziv loop from 200 bits), for cross-checks and the fast path's rest.
ExactExp mpfr_exact_exp(float x, ExpBase base);

/// |observed - b^x| / ulp(b^x) (docs/semantics.md §4) against what exact_exp knows: within
/// ref.uncertainty of the true distance. An expected inf or NaN matches only itself.
double ulp_distance(float observed, const ExactExp& ref);

/// The same distance computed in MPFR at 256 bits (error below 2^-200 ulp): for reports.
double mpfr_ulp_distance(float observed, float x, ExpBase base);

}  // namespace osvs::exhaustive
