// ULP distance of a float from a real: |yhat - y| / ulp(y), ulp(y) = 2^(max(floor(log2|y|), -126) -
// 23).
#pragma once

namespace osvs::oracle {

/// ulp(y) for a real y given as a double (y = 0 gives the subnormal ulp 2^-149).
double ulp_of(double y);

/// |observed - exact| / ulp(exact). Infinities and NaN match only themselves (0 or +inf).
double ulp_distance(float observed, double exact);

}  // namespace osvs::oracle
