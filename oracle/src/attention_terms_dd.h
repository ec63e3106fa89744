// The double-double pieces of attention's fast paths (the forward's attention_fast.cpp and the
// backward's attention_backward_fast.cpp): a score with its bound, the weight e^t of a shifted
// score, and a compensated accumulator with its bound. Their error analysis is attention_fast.cpp's
// (steps 1, 3 and 4), summarized at each below.
#pragma once

#include <cstdint>

#include "double_double.h"

namespace osvs::oracle::detail {

/// Keys whose shifted score is below -kFarGap have no double-double weight (e^-600 < 2^-865).
inline constexpr double kFarGap = 600;

inline double gamma_of(double k) {
  return k * kDdU / (1 - k * kDdU);
}

/// acc(n, rho) = 1.01 gamma_(2n) (1.01 n u + rho): the bound of Acc over n terms each main + rest
/// with |rest| <= rho |main|, times sum |main| (attention_fast.cpp step 4).
inline double acc_bound(double n, double rho) {
  return 1.01 * gamma_of(2 * n) * (1.01 * n * kDdU + rho);
}

/// H + L, main + rest terms added by TwoSum into H and roundings into L (acc_bound).
struct Acc {
  double h = 0, l = 0;
  void add(double main, double rest) {
    const DoubleDouble s = two_sum(h, main);
    h = s.h;
    l += s.l + rest;
  }
  DoubleDouble value() const { return two_sum(h, l); }
};

/// A score s^ (normalized double-double) and its bound: |s^ - s| <= delta.
struct Score {
  DoubleDouble s;
  double delta;
};

/// scale (q . k) over dim components, by four TwoSum cascades (attention_fast.cpp step 1):
/// |s^ - s| <= 1.0201 D'^2 u^2 P |scale| + 8.1 u^2 |s^| + D' 2^-1074 + 2^-1000, D' = dim + 4,
/// P = sum |q_c k_c|. scale is any double (the product of the score's scale and an fp8 key scale,
/// two floats, is one: dd_mul's bound holds for any double factor).
Score score_of(const float* q, const float* k, int dim, double scale);

/// s^ - slope distance, the ALiBi bias (TwoProd exact, dd_add): delta gains
/// 3.06 u^2 (|s^| + |bias|).
void add_alibi_bias(Score& x, float slope, std::int64_t distance);

/// e^t for a normalized t with t.h in [-kFarGap, 129], within 2^-95 (attention_fast.cpp step 3);
/// false when exp_dd refuses.
bool weight(DoubleDouble t, DoubleDouble* out);

/// e^(-128 j) for j = 0..4, from MPFR (each part rounded to nearest: 1.01 u^2 relative).
DoubleDouble exp_minus_128(int j);

}  // namespace osvs::oracle::detail
