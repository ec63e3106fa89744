// The exact outputs the black-box laws judge against (the oracle's softmax and log-softmax), and
// the ulp of each output type.
#include "exact_outputs.h"

#include "osvs/oracle/log_softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace osvs::api {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

ExactOutputs exact_outputs(RowOp op, const float* x, std::int64_t n) {
  ExactOutputs e;
  e.kind = oracle::classify_row(x, n);
  if (e.kind != oracle::RowKind::Finite) return e;
  if (op == RowOp::LogSoftmax) {
    e.value = oracle::log_softmax_reference(x, n);
    e.binade.assign(e.value.size(), kUnknownBinade);
  } else {
    oracle::RowReference ref = oracle::reference_row(x, n);
    e.value = std::move(ref.y);
    e.binade = std::move(ref.y_binade);
  }
  return e;
}

double ulp_in(DType t, double v, int binade) {
  const int p = precision_of(t), emin = min_exponent_of(t);
  if (binade != kUnknownBinade) return std::ldexp(1.0, std::max(binade, emin) - p + 1);
  if (v == 0) return std::ldexp(1.0, emin - p + 1);
  int e = 0;
  std::frexp(std::fabs(v), &e);  // |v| = f 2^e, f in [0.5, 1)
  int b = e - 1;
  // v within kRelErr above a power of two: the exact value may lie in the binade below.
  if (std::fabs(v) * (1 - kRelErr) <= std::ldexp(1.0, b)) b -= 1;
  return std::ldexp(1.0, std::max(b, emin) - p + 1);
}

double ulp_distance_in(DType t, float observed, double v, int binade) {
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
  return std::fabs(static_cast<double>(observed) - v) / ulp_in(t, v, binade);
}

double reference_slack_ulps(DType t) {
  // |v - exact| <= kRelErr |v| / (1 - kRelErr) and |v| < 2^(binade + 2), ulp_t >= 2^(binade - p +
  // 1) with the finer binade of ulp_in: at most kRelErr 2^(p + 1) / (1 - kRelErr), plus the 2^-53
  // rounding of the difference on a distance below 2^(p + 2).
  return kRelErr * std::ldexp(1.0, precision_of(t) + 1) / (1 - kRelErr) +
         std::ldexp(1.0, precision_of(t) + 2 - 53);
}

}  // namespace osvs::api
