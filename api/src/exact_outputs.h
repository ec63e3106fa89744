// The exact outputs of a row for a black-box kernel's operation, and the ulp distance of an
// observed output from them in the kernel's output type.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "osvs/api/row_kernel.h"
#include "osvs/oracle/reference.h"

namespace osvs::api {

struct ExactOutputs {
  oracle::RowKind kind = oracle::RowKind::Empty;
  /// Per element: softmax y_j or log-softmax x_j - lse, relative error <= kRelErr (Finite rows;
  /// an element whose exact value is 0 or -inf holds it exactly).
  std::vector<double> value;
  /// Per element: the exact value's binade max(floor(log2|l|), -126) when the oracle decided it
  /// (softmax: RowReference::y_binade), else kUnknownBinade (log-softmax: ulp_in then takes the
  /// finer of the two binades a value next to a power of two may lie in).
  std::vector<int> binade;
};

/// Relative error of ExactOutputs::value (derivations in exact_outputs.cpp and oracle/).
inline constexpr double kRelErr = oracle::kReferenceRelErr;

/// The exact outputs of op on the row (the oracle's semantics for special rows: kind != Finite
/// leaves value empty).
ExactOutputs exact_outputs(RowOp op, const float* x, std::int64_t n);

/// No binade decided for the element.
inline constexpr int kUnknownBinade = std::numeric_limits<int>::min();

/// ulp_t(v) = 2^(max(b, emin_t) - p_t + 1) with b the exact value's binade: `binade` when known;
/// otherwise floor(log2|v|), or one less when v (relative error kRelErr) may lie on either side
/// of a power of two, so that the distance below is never under-reported.
double ulp_in(DType t, double v, int binade = kUnknownBinade);

/// |observed - v| / ulp_in(t, v): the distance from the exact value up to
/// reference_slack_ulps(t). Infinities and NaN match only themselves (0 or +inf); -0 and +0 are
/// the same real.
double ulp_distance_in(DType t, float observed, double v, int binade = kUnknownBinade);

/// Ulps by which ulp_distance_in may differ from the distance to the exact value (the
/// reference's relative error kRelErr): added to every tolerance, so that a kernel within its
/// contract is never rejected because the reference is a double (2^-23 for f32).
double reference_slack_ulps(DType t);

}  // namespace osvs::api
