// Exact log-softmax for the black-box laws; softmax comes from the oracle (oracle/reference.h).
//
// log-softmax: l_j = (x_j - m) - L with L = log(sum_k e^(x_k - m)) = log1p((c - 1) + S), where c
// counts the elements equal to the maximum m and S sums e^(x_k - m) over x_k < m. Both parts are
// <= 0 and >= 0, so l_j = -(|x_j - m| + L) is a sum of two non-negative terms: no cancellation,
// and the relative errors combine (u_d = 2^-53):
//   e_k = e^(x_k - m)     TwoSum + exp + correction (oracle/src/reference_fast.cpp)  rel 2^-51
//                         (a gap below -708 leaves a subnormal double: absolute 2^-1074)
//   S = Sum2(e_k)         Ogita-Rump-Oishi, positive terms, n <= 2^28                rel 2^-50
//   t = (c - 1) + S       exact when c = 1, else one rounding                        rel 2^-49.5
//   L = log1p(t)          glibc log1p < 1 ulp; condition t / ((1 + t) log1p t) <= 1  rel 2^-48.9
//   a = m - x_j           one rounding                                               rel 2^-53
//   l = -(a + L)          one rounding of a sum of non-negative terms                rel 2^-48.5
// so |l_hat - l| <= kRelErr |l| + n 2^-1074, the absolute part below every type's smallest ulp.
#include "exact_outputs.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace osvs::api {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// e^(x - m) with relative error 2^-51 (the oracle's derivation).
double exp_gap(float x, float m) {
  const double a = x, b = -static_cast<double>(m);
  const double s = a + b;
  const double bv = s - a;
  const double t = (a - (s - bv)) + (b - bv);
  const double e0 = std::exp(s);
  return e0 + e0 * t;
}

std::vector<double> log_softmax_values(const float* x, std::int64_t n) {
  const float m = *std::max_element(x, x + n);
  double c = 0, s = 0, comp = 0;  // Sum2: s + comp
  for (std::int64_t k = 0; k < n; ++k) {
    if (x[k] == m) {
      c += 1;
      continue;
    }
    if (x[k] == -std::numeric_limits<float>::infinity()) continue;
    const double v = exp_gap(x[k], m);
    const double sn = s + v, z = sn - s;
    comp += (s - (sn - z)) + (v - z);
    s = sn;
  }
  const double L = std::log1p((c - 1) + (s + comp));
  std::vector<double> out(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    out[static_cast<std::size_t>(j)] =
        x[j] == -std::numeric_limits<float>::infinity()
            ? -kInf
            : -((static_cast<double>(m) - static_cast<double>(x[j])) + L);
  return out;
}

}  // namespace

ExactOutputs exact_outputs(RowOp op, const float* x, std::int64_t n) {
  ExactOutputs e;
  e.kind = oracle::classify_row(x, n);
  if (e.kind != oracle::RowKind::Finite) return e;
  if (op == RowOp::LogSoftmax) {
    e.value = log_softmax_values(x, n);
  } else {
    e.value = oracle::reference_row(x, n).y;
  }
  return e;
}

double ulp_in(DType t, double v) {
  const int p = precision_of(t), emin = min_exponent_of(t);
  if (v == 0) return std::ldexp(1.0, emin - p + 1);
  int e = 0;
  std::frexp(std::fabs(v), &e);  // |v| = f 2^e, f in [0.5, 1)
  int binade = e - 1;
  // v within kRelErr above a power of two: the exact value may lie in the binade below.
  if (std::fabs(v) * (1 - kRelErr) <= std::ldexp(1.0, binade)) binade -= 1;
  return std::ldexp(1.0, std::max(binade, emin) - p + 1);
}

double ulp_distance_in(DType t, float observed, double v) {
  if (std::isnan(v)) return std::isnan(observed) ? 0 : kInf;
  if (std::isnan(observed)) return kInf;
  if (std::isinf(v)) return static_cast<double>(observed) == v ? 0 : kInf;
  if (std::isinf(observed)) {
    // Past the overflow threshold max + ulp(max) / 2 the correctly rounded value is that infinity.
    const double max = max_finite_of(t);
    const double threshold = max + 0.5 * ulp_in(t, max);
    return std::fabs(v) >= threshold && std::signbit(v) == std::signbit(observed) ? 0 : kInf;
  }
  // The difference rounds once in double (relative 2^-53); the division by a power of two is exact.
  return std::fabs(static_cast<double>(observed) - v) / ulp_in(t, v);
}

double reference_slack_ulps(DType t) {
  // |v - exact| <= kRelErr |v| / (1 - kRelErr) and |v| < 2^(binade + 2), ulp_t >= 2^(binade - p +
  // 1) with the finer binade of ulp_in: at most kRelErr 2^(p + 1) / (1 - kRelErr), plus the 2^-53
  // rounding of the difference on a distance below 2^(p + 2).
  return kRelErr * std::ldexp(1.0, precision_of(t) + 1) / (1 - kRelErr) +
         std::ldexp(1.0, precision_of(t) + 2 - 53);
}

}  // namespace osvs::api
