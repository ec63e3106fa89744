// The matcher: pass/fail per element with an explanation in the style of LLVM libc's MPFR matcher.
#include "osvs/oracle/matcher.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "osvs/kernels/hex.h"
#include "osvs/oracle/ulp.h"

namespace osvs::oracle {
namespace {

std::string row_hex(const float* x, std::int64_t n) {
  constexpr std::int64_t kShown = 16;
  std::string s = "[";
  for (std::int64_t j = 0; j < std::min(n, kShown); ++j) s += (j ? ", " : "") + hex(x[j]);
  if (n > kShown) s += ", ... (" + std::to_string(n) + " elements)";
  return s + "]";
}

void check_sizes(std::int64_t n, const RowReference& ref, const std::vector<double>& tol) {
  if (n < 0) throw std::invalid_argument("match_softmax: negative row length");
  if (static_cast<std::int64_t>(ref.y.size()) != n || ref.y_binade.size() != ref.y.size())
    throw std::invalid_argument("match_softmax: reference has " + std::to_string(ref.y.size()) +
                                " outputs, row has " + std::to_string(n));
  if (ref.kind == RowKind::Finite && static_cast<std::int64_t>(tol.size()) != n)
    throw std::invalid_argument("match_softmax: " + std::to_string(tol.size()) +
                                " tolerances for " + std::to_string(n) + " elements");
}

/// A row whose outputs are all NaN or all zero by convention: the first offending element fails.
MatchResult match_uniform(const float* x, std::int64_t n, const float* y_hat,
                          const RowReference& ref, bool want_nan, bool accept_either) {
  MatchResult r;
  if (n == 0) return r;
  const bool first_nan = std::isnan(y_hat[0]);
  const bool nan_expected = accept_either ? first_nan : want_nan;
  for (std::int64_t j = 0; j < n; ++j) {
    const bool ok = nan_expected ? std::isnan(y_hat[j]) : y_hat[j] == 0.0f;
    if (ok) continue;
    r.ok = false;
    r.worst_index = j;
    r.worst_ulp = r.worst_ratio = INFINITY;
    r.explanation = std::string("row kind ") + to_string(ref.kind) + ": expected every output " +
                    (nan_expected ? "NaN" : "0") + ", element " + std::to_string(j) + " is " +
                    hex(y_hat[j]) + "\n  input " + row_hex(x, n);
    return r;
  }
  return r;
}

}  // namespace

std::string explain_element(const float* x, std::int64_t n, std::int64_t j, float y_hat,
                            const RowReference& ref, double tol_ulp) {
  const auto k = static_cast<std::size_t>(j);
  const double dist = ulp_distance(y_hat, ref.y[k], ref.y_binade[k]);
  return "softmax element " + std::to_string(j) + " of " + std::to_string(n) + ":\n  x[j]      " +
         readable(x[j]) + "\n  m         " + readable(ref.m) + "   d " + readable(ref.d) +
         "\n  reference " + readable(ref.y[k]) + " (rounded " + readable(ref.y_rounded[k]) +
         ")\n  observed  " + readable(y_hat) + "\n  distance  " + digits9(dist) +
         " ulp, tolerance " + digits9(tol_ulp) + " ulp\n  input     " + row_hex(x, n);
}

MatchResult match_softmax(const float* x, std::int64_t n, const float* y_hat,
                          const RowReference& ref, const std::vector<double>& tol_ulp) {
  check_sizes(n, ref, tol_ulp);
  if (ref.kind == RowKind::AllMasked) return match_uniform(x, n, y_hat, ref, true, true);
  return match_softmax(x, n, y_hat, ref, tol_ulp, MaskedOutput::NaN);
}

MatchResult match_softmax(const float* x, std::int64_t n, const float* y_hat,
                          const RowReference& ref, const std::vector<double>& tol_ulp,
                          MaskedOutput masked) {
  check_sizes(n, ref, tol_ulp);
  switch (ref.kind) {
    case RowKind::Empty:
      return {};
    case RowKind::NaN:
    case RowKind::PosInf:
      return match_uniform(x, n, y_hat, ref, true, false);
    case RowKind::AllMasked:
      return match_uniform(x, n, y_hat, ref, masked == MaskedOutput::NaN, false);
    case RowKind::Finite:
      break;
  }
  MatchResult r;
  for (std::int64_t j = 0; j < n; ++j) {
    const auto k = static_cast<std::size_t>(j);
    const double dist = ulp_distance(y_hat[j], ref.y[k], ref.y_binade[k]);
    const double ratio = tolerance_ratio(dist, tol_ulp[k]);
    if (dist > r.worst_ulp || r.worst_index < 0) {
      r.worst_ulp = dist;
      r.worst_index = j;
    }
    r.worst_ratio = std::max(r.worst_ratio, ratio);
    if (r.ok && !within_tolerance(dist, tol_ulp[k])) {
      r.ok = false;
      r.explanation = explain_element(x, n, j, y_hat[j], ref, tol_ulp[k]);
    }
  }
  return r;
}

}  // namespace osvs::oracle
