// The ULP metric of docs/semantics.md §4, computed on the unrounded reference.
#include "osvs/oracle/ulp.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace osvs::oracle {

int binade_of(double y) {
  if (y == 0) return -126;
  return std::max(std::ilogb(y), -126);  // ilogb: floor(log2|y|), exact for finite y != 0
}

double ulp_of_binade(int binade) {
  return std::ldexp(1.0, std::max(binade, -126) - 23);  // the float grid below 2^-126 is uniform
}

double ulp_of(double y) {
  if (std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(y)) return std::numeric_limits<double>::infinity();
  return ulp_of_binade(binade_of(y));
}

double ulp_distance(float observed, double exact, int exact_binade) {
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(exact)) return std::isnan(observed) ? 0 : inf;
  if (std::isnan(observed)) return inf;
  if (std::isinf(exact)) return static_cast<double>(observed) == exact ? 0 : inf;
  if (std::isinf(observed)) return inf;
  // Signed zeros are the same real number: -0 against +0 is distance 0.
  // |observed - exact| rounds once in double (relative 2^-53 of the difference); the division by
  // a power of two is exact, since the ulp is >= 2^-149 and keeps the quotient normal or exact.
  return std::fabs(static_cast<double>(observed) - exact) / ulp_of_binade(exact_binade);
}

double ulp_distance(float observed, double exact) {
  return ulp_distance(observed, exact, std::isfinite(exact) ? binade_of(exact) : 0);
}

}  // namespace osvs::oracle
