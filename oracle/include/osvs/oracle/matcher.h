// A matcher in the style of LLVM libc's MPFR matcher: checks kernel outputs against the reference
// within per-element tolerances and explains a mismatch with hex inputs, reference, observed value
// and distance in ulps.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "osvs/oracle/reference.h"

namespace osvs::oracle {

struct MatchResult {
  bool ok = true;
  double worst_ulp = 0;           ///< largest ulp distance seen
  std::int64_t worst_index = -1;  ///< its element
  double worst_ratio = 0;         ///< largest distance / tolerance (tightness)
  std::string explanation;        ///< empty when ok
};

/// What a kernel writes for a fully masked row (every element -inf).
enum class MaskedOutput { NaN, Zero };

/// Ulps by which a distance measured against ref.y may differ from the distance to the exact y:
/// kReferenceRelErr * |y| / ulp(y) < kReferenceRelErr * 2^24. Added to every tolerance so that a
/// kernel within its bound is never rejected because the reference is a double.
inline constexpr double kReferenceUlpSlack = kReferenceRelErr * 0x1p24;

/// The matcher's verdict on one finite element: its distance `dist` (ulps, against ref.y with
/// ref.y_binade) within its tolerance, with the reference's slack.
inline bool within_tolerance(double dist, double tol_ulp) {
  return dist <= tol_ulp + kReferenceUlpSlack;
}

/// The matcher's tightness of one element: dist / tol_ulp; a zero tolerance allows only a zero
/// distance (ratio 0, else +inf).
inline double tolerance_ratio(double dist, double tol_ulp) {
  return tol_ulp > 0 ? dist / tol_ulp : (dist > 0 ? INFINITY : 0);
}

/// Every y_hat[j] within tol_ulp[j] ulps of ref.y[j] (NaN rows: every output NaN). A fully masked
/// row accepts all-NaN or all-zero outputs (use the overload below to demand one of them).
/// Throws std::invalid_argument when tol_ulp.size() != n or ref.y.size() disagrees with n.
MatchResult match_softmax(const float* x, std::int64_t n, const float* y_hat,
                          const RowReference& ref, const std::vector<double>& tol_ulp);

/// As above, with the kernel's documented output for a fully masked row.
MatchResult match_softmax(const float* x, std::int64_t n, const float* y_hat,
                          const RowReference& ref, const std::vector<double>& tol_ulp,
                          MaskedOutput masked);

/// Explanation of one element in the matcher's format (hex input, reference, observed, ulps).
std::string explain_element(const float* x, std::int64_t n, std::int64_t j, float y_hat,
                            const RowReference& ref, double tol_ulp);

}  // namespace osvs::oracle
