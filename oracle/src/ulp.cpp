// The ULP metric of DESIGN.md §3, computed on the unrounded reference.
#include "osvs/oracle/ulp.h"

#include <cmath>
#include <limits>

namespace osvs::oracle {

double ulp_of(double y) {
  if (std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(y)) return std::numeric_limits<double>::infinity();
  if (y == 0) return 0x1p-149;
  int e = 0;
  std::frexp(y, &e);  // |y| = f * 2^e, f in [0.5, 1): floor(log2|y|) = e - 1
  const int exponent = std::max(e - 1, -126);  // the float grid below 2^-126 is uniform
  return std::ldexp(1.0, exponent - 23);       // exact power of two
}

double ulp_distance(float observed, double exact) {
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(exact)) return std::isnan(observed) ? 0 : inf;
  if (std::isnan(observed)) return inf;
  if (std::isinf(exact)) return static_cast<double>(observed) == exact ? 0 : inf;
  if (std::isinf(observed)) return inf;
  // Signed zeros are the same real number: -0 against +0 is distance 0.
  // |observed - exact| rounds once in double (relative 2^-53 of the difference); the division by
  // a power of two is exact, since ulp_of(exact) >= 2^-149 keeps the quotient normal or exact.
  return std::fabs(static_cast<double>(observed) - exact) / ulp_of(exact);
}

}  // namespace osvs::oracle
