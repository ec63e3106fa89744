// A sum carried as an unevaluated pair of floats s + c: the fast kernel's compensated sums.
//
// pair_add(a, b) adds a.s + b.s with one rounding and keeps that rounding's exact error e
// (Knuth's TwoSum, TAOCP vol. 2, 4.2.2: six IEEE operations, no branch, exact for every finite
// a.s, b.s whose rounded sum is finite); the small parts are added as c = fl(fl(a.c + b.c) + e).
// The pair's value s + c then differs from a's plus b's only by the two roundings of the small
// part, each at most u |.| of a quantity of the order u times the sum: a tree of pair_adds loses
// O(depth u^2) where plain float sums lose O(depth u). pair_value rounds the pair once. The error
// accounting, written against these steps, is oracle/src/fast_error_algebra.h's PairSumAccAlg.
#pragma once

#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_exp.h"
#include "osvs/kernels/rounded_ops.h"

namespace osvs {

struct FloatPair {
  float s = 0.0f;  ///< the rounded sum
  float c = 0.0f;  ///< the compensation: what the roundings of s lost, itself rounded
};

OSVS_HD FloatPair pair_add(FloatPair a, FloatPair b) {
  const float s = a.s + b.s;
  const float e = two_sum_error(a.s, b.s, s);
  return FloatPair{s, (a.c + b.c) + e};
}

/// The pair rounded to one float.
OSVS_HD float pair_value(FloatPair p) {
  return p.s + p.c;
}

/// fl(a b + c) - r's complement: the error (a b + c) - r of r, an fl(a b + c) rounded once (an
/// fma) or twice (a product, then a sum), for a, b, c >= 0 and finite, as one float (Boldo and
/// Muller's ErrFma, its last two parts added):
///   u1 = fl(a b), u2 = a b - u1 exactly (fma)          a b = u1 + u2
///   alpha1 = fl(c + u2), z = (c + u2) - alpha1 (TwoSum)  c + u2 = alpha1 + z
///   beta1 = fl(u1 + alpha1), beta2 = the rest (TwoSum)   u1 + alpha1 = beta1 + beta2
///   so  a b + c - r = (beta1 - r) + beta2 + z  exactly (u2 is exact unless a b lies below the
///   normal range: then 2^-150 more, which the accounting adds), and
///   gamma = fl(beta1 - r) exact (Sterbenz: beta1 and r are within a factor 2, both within
///   2 u (1 + u) of a b + c >= 0), the result fl(fl(gamma + beta2) + z) two roundings of
///   quantities of size u (a b + c): its error is below 16 u^2 (a b + c) (the accounting:
///   oracle/src/fast_error_algebra.h, AccMergeAlg).
OSVS_HD float fma_error(float a, float b, float c, float r) {
  const float u1 = detail::mul_rn(a, b);
  const float u2 = detail::fma_f(a, b, -u1);
  const float alpha1 = c + u2;
  const float z = two_sum_error(c, u2, alpha1);
  const float beta1 = u1 + alpha1;
  const float beta2 = two_sum_error(u1, alpha1, beta1);
  return ((beta1 - r) + beta2) + z;
}

}  // namespace osvs
