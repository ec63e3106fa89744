#include "osvs/audit/row_merge.h"

#include <algorithm>
#include <string>

namespace osvs::audit {
namespace {

/// Whether (value, row) beats the current (best, best_row): larger value, or the same value at a
/// lower row. No current best (best_row < 0) is beaten by anything.
bool beats(double value, std::int64_t row, double best, std::int64_t best_row) {
  return best_row < 0 || value > best || (value == best && row < best_row);
}

/// Keeps the explanations of the kKeptViolations lowest violating rows, in row order.
void keep_violation(ConfigResult& r, const RowAudit& a, std::int64_t row) {
  const auto at = std::lower_bound(r.violation_rows.begin(), r.violation_rows.end(), row);
  const auto k = at - r.violation_rows.begin();
  if (static_cast<std::size_t>(k) >= kKeptViolations) return;
  r.violation_rows.insert(at, row);
  r.violations.insert(r.violations.begin() + k,
                      "row " + std::to_string(row) + ": " + a.explanation);
  if (r.violations.size() > kKeptViolations) {
    r.violations.pop_back();
    r.violation_rows.pop_back();
  }
}

}  // namespace

void merge_row(ConfigResult& r, const RowAudit& a, std::int64_t row) {
  r.y_bound_max = std::max(r.y_bound_max, a.y_bound_max);
  if (beats(a.worst_ulp.ulp, row, r.worst_ulp.ulp, r.worst_ulp_row)) {
    r.worst_ulp = a.worst_ulp;
    r.worst_ulp_row = row;
  }
  if (beats(a.ratio, row, r.tightness, r.worst_ratio_row)) {
    r.tightness = a.ratio;
    r.worst_ratio = a.worst_ratio;
    r.worst_ratio_row = row;
  }
  r.d_rel_max = std::max(r.d_rel_max, a.d_rel);
  r.d_bound_max = std::max(r.d_bound_max, a.d_bound);
  if (a.d_bound > 0) r.d_tightness = std::max(r.d_tightness, a.d_rel / a.d_bound);
  r.mpfr_fallbacks += a.mpfr_fallbacks;
  if (!a.ok) {
    ++r.violating_rows;
    keep_violation(r, a, row);
  }
}

}  // namespace osvs::audit
