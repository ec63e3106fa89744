// ULP distance of a float from a real: |yhat - y| / ulp(y), ulp(y) = 2^(b(y) - 23) with the binade
// b(y) = max(floor(log2|y|), -126) (docs/semantics.md §4).
//
// The binade belongs to the exact real. A double approximation of it can lie in the neighbouring
// binade when the real is next to a power of two (the dominant output of a peaked row is 1 - tiny,
// its double 1.0), and its ulp is then twice or half the true one. So the distance to a reference
// element takes the exact binade the oracle decided (RowReference::y_binade).
//
// The per-element functions are inline (the audit calls them for every element) and read the
// exponent off the bits: the same values as std::ilogb and std::ldexp, without the calls.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace osvs::oracle {

/// 2^e as a double for -1022 <= e <= 1023 (a normal double: the biased exponent e + 1023 and a
/// zero significand), exactly std::ldexp(1.0, e); other e go to std::ldexp.
inline double exact_pow2(int e) {
  if (e < -1022 || e > 1023) return std::ldexp(1.0, e);
  return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
}

/// b(y) = max(floor(log2|y|), -126) of a double y; 0 and the subnormal range give -126.
/// For a finite y != 0 of biased exponent field E: a normal y (E >= 1) has floor(log2|y|) = E -
/// 1023 (what std::ilogb returns); a subnormal double (E = 0) lies below 2^-1022, so both sides
/// give -126. Non-finite y take std::ilogb, as before.
inline int binade_of(double y) {
  if (y == 0) return -126;
  const auto biased = static_cast<int>((std::bit_cast<std::uint64_t>(y) >> 52) & 0x7ff);
  if (biased == 0x7ff) return std::max(std::ilogb(y), -126);
  return std::max(biased - 1023, -126);
}

/// ulp of the reals of binade b: 2^(max(b, -126) - 23), an exact power of two.
inline double ulp_of_binade(int binade) {
  return exact_pow2(std::max(binade, -126) - 23);  // the float grid below 2^-126 is uniform
}

/// ulp(y) for a real that is exactly the double y (y = 0 gives the subnormal ulp 2^-149).
inline double ulp_of(double y) {
  if (std::isnan(y)) return NAN;
  if (std::isinf(y)) return INFINITY;
  return ulp_of_binade(binade_of(y));
}

/// |observed - exact| / ulp(exact) for a real exact that lies in binade exact_binade, known
/// approximately as the double `exact`. Infinities and NaN match only themselves (0 or +inf).
inline double ulp_distance(float observed, double exact, int exact_binade) {
  const double inf = INFINITY;
  if (std::isnan(exact)) return std::isnan(observed) ? 0 : inf;
  if (std::isnan(observed)) return inf;
  if (std::isinf(exact)) return static_cast<double>(observed) == exact ? 0 : inf;
  if (std::isinf(observed)) return inf;
  // Signed zeros are the same real number: -0 against +0 is distance 0.
  // |observed - exact| rounds once in double (relative 2^-53 of the difference); the division by
  // a power of two is exact, since the ulp is >= 2^-149 and keeps the quotient normal or exact.
  return std::fabs(static_cast<double>(observed) - exact) / ulp_of_binade(exact_binade);
}

/// As above, with the binade of the double itself: right when exact is the real (a double value
/// such as a state's d), or when it is known to lie in the real's binade (RowReference::y does).
double ulp_distance(float observed, double exact);

}  // namespace osvs::oracle
