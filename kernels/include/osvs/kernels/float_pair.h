// A sum carried as an unevaluated pair of floats s + c: the fast kernel's compensated sums.
//
// pair_add(a, b) adds a.s + b.s with one rounding and keeps that rounding's exact error e
// (Knuth's TwoSum, TAOCP vol. 2, 4.2.2: six IEEE operations, no branch, exact for every finite
// a.s, b.s whose rounded sum is finite); the small parts are added as c = fl(fl(a.c + b.c) + e).
// The pair's value s + c then differs from a's plus b's only by the two roundings of the small
// part, each at most u |.| of a quantity of the order u times the sum: a tree of pair_adds loses
// O(depth u^2) where plain float sums lose O(depth u). value() rounds the pair once. The error
// accounting, written against these steps, is oracle/src/fast_error_algebra.h's PairSumAccAlg.
#pragma once

#include "osvs/kernels/hd.h"

namespace osvs {

struct FloatPair {
  float s = 0.0f;  ///< the rounded sum
  float c = 0.0f;  ///< the compensation: what the roundings of s lost, itself rounded
};

/// The exact error (a + b) - s of s = fl(a + b) (TwoSum), for finite a, b with s finite.
OSVS_HD float two_sum_error(float a, float b, float s) {
  const float b1 = s - a;   // the part of b that made it into s
  const float a1 = s - b1;  // the part of a that made it into s
  return (a - a1) + (b - b1);
}

OSVS_HD FloatPair pair_add(FloatPair a, FloatPair b) {
  const float s = a.s + b.s;
  const float e = two_sum_error(a.s, b.s, s);
  return FloatPair{s, (a.c + b.c) + e};
}

/// The pair rounded to one float.
OSVS_HD float pair_value(FloatPair p) {
  return p.s + p.c;
}

}  // namespace osvs
