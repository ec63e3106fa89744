// Metamorphic laws: permuting a row permutes its softmax; shifting a row by an exact c leaves its
// softmax unchanged. Both runs are held to their own bounds around the one exact softmax.
#include <stdexcept>

#include "osvs/properties/checks.h"
#include "row_oracle.h"
#include "support.h"

namespace osvs {
namespace {

/// Runs two single rows with the same exact softmax and compares them through compare_runs.
Verdict compare_two_rows(const Case& c, Executor& ex, const std::vector<float>& a_row,
                         const std::vector<float>& b_row,
                         const std::function<std::int64_t(std::int64_t)>& map,
                         const std::string& what) {
  const double eu = props::exp_ulp(ex);
  const props::RowOracle b = props::row_oracle(c, b_row, eu);
  if (b.ref.kind != oracle::RowKind::Finite) return props::not_applicable("row is not finite");
  const oracle::SoftmaxBound a_bound = props::row_bound(c, a_row, eu);
  const SoftmaxResult ra = ex.softmax(props::batch_of(c, {a_row}));
  const SoftmaxResult rb = ex.softmax(props::batch_of(c, {b_row}));
  return props::compare_runs(ra.y.data(), a_bound.y_ulp, rb.y.data(), b.bound.y_ulp, b.ref, map,
                             what);
}

}  // namespace

Verdict check_permutation_equivariance(const Case& c, Executor& ex) {
  if (c.rows.empty()) throw std::invalid_argument("permutation_equivariance needs rows[0]");
  const auto& x = c.rows[0];
  const auto n = std::ssize(x);
  if (std::ssize(c.permutation) != n)
    throw std::invalid_argument("permutation has " + std::to_string(c.permutation.size()) +
                                " entries for a row of " + std::to_string(n));
  std::vector<bool> seen(x.size());
  std::vector<float> permuted(x.size());
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t p = c.permutation[static_cast<std::size_t>(i)];
    if (p < 0 || p >= n || seen[static_cast<std::size_t>(p)])
      throw std::invalid_argument("permutation is not a permutation of 0.." +
                                  std::to_string(n - 1));
    seen[static_cast<std::size_t>(p)] = true;
    permuted[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(p)];
  }
  // softmax(x∘π)[i] = softmax(x)[π(i)]
  return compare_two_rows(
      c, ex, permuted, x,
      [&](std::int64_t i) { return c.permutation[static_cast<std::size_t>(i)]; },
      "softmax(x permuted) vs softmax(x) permuted");
}

Verdict check_shift_invariance(const Case& c, Executor& ex) {
  if (c.rows.empty()) throw std::invalid_argument("shift_invariance needs rows[0]");
  const auto& x = c.rows[0];
  std::vector<float> shifted(x.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    shifted[j] = x[j] + c.shift;
    // x + c is exact iff fl(x + c) - c == x (both differences exact by Sterbenz when it is).
    if (shifted[j] - c.shift != x[j])
      return props::not_applicable("x[" + std::to_string(j) + "] + " + props::hex(c.shift) +
                                   " is not exact in float");
  }
  return compare_two_rows(
      c, ex, shifted, x, [](std::int64_t j) { return j; },
      "softmax(x + " + props::hex(c.shift) + ") vs softmax(x)");
}

}  // namespace osvs
