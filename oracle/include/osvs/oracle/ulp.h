// ULP distance of a float from a real: |yhat - y| / ulp(y), ulp(y) = 2^(b(y) - 23) with the binade
// b(y) = max(floor(log2|y|), -126) (docs/semantics.md §4).
//
// The binade belongs to the exact real. A double approximation of it can lie in the neighbouring
// binade when the real is next to a power of two (the dominant output of a peaked row is 1 - tiny,
// its double 1.0), and its ulp is then twice or half the true one. So the distance to a reference
// element takes the exact binade the oracle decided (RowReference::y_binade).
#pragma once

namespace osvs::oracle {

/// b(y) = max(floor(log2|y|), -126) of a double y; 0 and the subnormal range give -126.
int binade_of(double y);

/// ulp of the reals of binade b: 2^(max(b, -126) - 23), an exact power of two.
double ulp_of_binade(int binade);

/// ulp(y) for a real that is exactly the double y (y = 0 gives the subnormal ulp 2^-149).
double ulp_of(double y);

/// |observed - exact| / ulp(exact) for a real exact that lies in binade exact_binade, known
/// approximately as the double `exact`. Infinities and NaN match only themselves (0 or +inf).
double ulp_distance(float observed, double exact, int exact_binade);

/// As above, with the binade of the double itself: right when exact is the real (a double value
/// such as a state's d), or when it is known to lie in the real's binade (RowReference::y does).
double ulp_distance(float observed, double exact);

}  // namespace osvs::oracle
