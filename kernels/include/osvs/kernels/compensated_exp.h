// exp(x - m) with the rounding of x - m compensated: the fast kernel's output step.
//
// The plain form kexp(fl(x - m)) inherits the rounding of the difference amplified by exp's
// condition number |x - m|: |fl(g) - g| <= u |g| gives a relative error up to e^(u|g|) - 1 ~ u |g|,
// some 100 u for the elements far below the maximum, the dominant error of the lesson's kernels
// (docs/semantics.md). Here the difference is split exactly (TwoSum, Knuth: six IEEE operations,
// no branch, no condition on the operands' magnitudes):
//
//   t = fl(x - m)                          rounded difference
//   e = (x - m) - t                        exact (TwoSum)         |e| <= ulp(t) / 2 <= u |t|
//   E = kexp(t)                            exp_ulp ulps of e^t
//   r = fma(E, e, E) = fl(E (1 + e))       one rounding           e^t (1 + e) = e^(x - m) (1 +
//   O(e^2))
//
// so r = e^(x - m) (1 + d), |d| <= (1 + 2 exp_ulp u)(1 + (u |g|)^2)(1 + u) - 1 for a normal
// result (oracle/src/error_terms.h, compensated_exp_error): about (2 exp_ulp + 1) u, whatever the
// gap g = x - m. Specials: x = -inf or an overflowing difference (t = -inf) give kexp(t) = 0
// without the correction (TwoSum of infinities is NaN); a NaN operand gives NaN.
#pragma once

#include "osvs/kernels/exp.h"
#include "osvs/kernels/exp_functors.h"
#include "osvs/kernels/fp_model.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_exp.h"
#include "osvs/kernels/rounded_ops.h"

namespace osvs {

/// The exact error (a - b) - t of t = fl(a - b) = fl(a + c), c = -b (negation is exact): TwoSum,
/// valid for every finite a, b whose rounded sum t is finite.
OSVS_HD float two_diff_error(float a, float b, float t) {
  return two_sum_error(-b, a, t);
}

/// e^(x - m) with the difference compensated (see above), over the exp `Exp` (a functor). Every
/// step is an IEEE binary32 operation written out (fma explicitly), so the host and the device
/// compute the same bits for the same exp.
template <class Exp>
OSVS_HD float compensated_exp_diff_with(float x, float m) {
  const float t = x - m;
  const float E = Exp{}(t);
  // t = -inf (x = -inf, or an overflowing difference): E = 0 exactly, and e^(x - m) < 2^-150;
  // t NaN or +inf (a NaN operand, or m = -inf of a masked row): E itself, uncorrected.
  if (!(abs_f(t) < __builtin_huge_valf())) return E;  // t = +-inf or NaN: no correction
  const float e = two_diff_error(x, m, t);
  return detail::fma_f(E, e, E);
}

/// compensated_exp_diff_with over kexp.
OSVS_HD float compensated_exp_diff(float x, float m) {
  return compensated_exp_diff_with<KernelExp>(x, m);
}

}  // namespace osvs
