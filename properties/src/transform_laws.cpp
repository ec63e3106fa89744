// Metamorphic laws: permuting a row permutes its softmax (both runs held to their own bounds
// around the one exact softmax); shifting a row by a c exact on it leaves its softmax unchanged,
// bit for bit.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "osvs/properties/checks.h"
#include "osvs/properties/exact_shift.h"
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
  if (b.ref.kind != oracle::RowKind::Finite) return Verdict::vacuous("row is not finite");
  const oracle::SoftmaxBound a_bound = props::row_bound(c, a_row, eu);
  const SoftmaxResult ra = ex.softmax(props::batch_of(c, {a_row}));
  const SoftmaxResult rb = ex.softmax(props::batch_of(c, {b_row}));
  return props::compare_runs(ra.y.data(), a_bound.y_ulp, rb.y.data(), b.bound.y_ulp, b.ref, map,
                             what);
}

}  // namespace

Verdict check_permutation_equivariance(const Case& c, Executor& ex) {
  if (c.rows.empty()) throw std::invalid_argument("permutation needs rows[0]");
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

// Shift invariance is bitwise. Every quantity the kernels compute depends on the row only through
// differences of its elements: m and the partial maxima are elements, each exp argument is
// x_j - m_partial or m_partial - m_partial', and pass 2 computes exp(x_j - m) / d. After an exact
// shift (every x_j + c exact, hence m + c exact) these differences are the same real numbers, so
// each is rounded from identical operands to identical bits, and so are the exps, the sums, d and
// y. The seed's initial state (-FLT_MAX, 0) is the one term not shifted with the row: its weight is
// 0 * exp(-FLT_MAX - m), with an argument <= 0 whose exp lies in [0, 1], so the term is 0 either
// way. The only state that moves is m, to exactly m + c.
Verdict check_shift_invariance(const Case& c, Executor& ex) {
  if (c.rows.empty()) throw std::invalid_argument("shift_invariance needs rows[0]");
  const auto& x = c.rows[0];
  std::vector<float> shifted(x.size());
  bool moved = false;
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (std::isnan(x[j]) || x[j] == INFINITY)
      return Verdict::vacuous("x[" + std::to_string(j) + "] = " + props::hex(x[j]) +
                              ": the row's softmax is NaN whatever the shift");
    if (!shift_is_exact(x[j], c.shift))
      return Verdict::vacuous("x[" + std::to_string(j) + "] + " + props::hex(c.shift) +
                              " is not exact in float");
    shifted[j] = x[j] + c.shift;
    moved |= props::bits(shifted[j]) != props::bits(x[j]);
  }
  if (!moved) return Verdict::vacuous("x + c is the row itself (empty, all -inf, or c = 0)");
  const SoftmaxResult got = ex.softmax(props::batch_of(c, {shifted}));
  SoftmaxResult expected = ex.softmax(props::batch_of(c, {x}));
  // m is an element of the row (or the initial state's when no element is finite), so m + c is
  // exact when the row has a finite element; otherwise every element is -inf and stays so.
  State& s = expected.row_state.at(0);
  if (std::any_of(x.begin(), x.end(), [](float v) { return std::isfinite(v); })) s.m += c.shift;
  return props::compare_bitwise(
      got, expected, std::ssize(x),
      "softmax(x + " + props::hex(c.shift) + ") vs softmax(x) with m shifted by c");
}

}  // namespace osvs
