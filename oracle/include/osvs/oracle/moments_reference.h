// The exact mean and population variance of a row of floats (MPFR through Boost.Multiprecision):
// the reference of osvs's Welford / Chan state reduction (kernels/reductions/welford.h).
//
// Accuracy: every float is a dyadic rational of at most 24 significant bits between 2^-149 and
// 2^128, so the sum of n < 2^32 of them is exact at 320 bits; at 1024 bits the mean S / n carries
// a relative error below 2^-1023, and M2 = sum (x_j - mean)^2, a sum of non-negative terms, one
// below 2^-1000. Rounded to double: relative error at most 2^-53 (1 + 2^-990) < 2^-50 each.
#pragma once

#include <cstdint>
#include <span>

namespace osvs::oracle {

struct Moments {
  std::int64_t n = 0;
  double mean = 0;  ///< NaN for n = 0 or a row with a NaN or an infinity
  double var = 0;   ///< M2 / n, the population variance; NaN as the mean
};

Moments moments_reference(std::span<const float> row);

}  // namespace osvs::oracle
