// Softmax accuracy, sum and range against the oracle, row by row.
#include <cmath>

#include "osvs/oracle/matcher.h"
#include "osvs/oracle/ulp.h"
#include "osvs/properties/checks.h"
#include "row_oracle.h"
#include "support.h"

namespace osvs {
namespace {

/// Runs c.rows as one batch and calls judge(row index, row, outputs, oracle) for each finite row;
/// returns the first failing verdict, else a pass carrying the worst evidence seen.
template <class Judge>
Verdict for_each_finite_row(const Case& c, Executor& ex, Judge judge) {
  const SoftmaxBatch batch = props::batch_of(c, c.rows);
  const SoftmaxResult r = ex.softmax(batch);
  Verdict all;
  int finite = 0;
  for (std::int64_t i = 0; i < batch.rows; ++i) {
    const auto& row = c.rows[static_cast<std::size_t>(i)];
    const props::RowOracle o = props::row_oracle(c, row, props::exp_ulp(ex));
    if (o.ref.kind != oracle::RowKind::Finite) continue;
    ++finite;
    Verdict v = judge(i, row, props::row_out(r, batch.cols, i), o);
    if (!v.holds()) {
      v.explanation = "row " + std::to_string(i) + ": " + v.explanation;
      return v;
    }
    all.evidence.insert(all.evidence.end(), v.evidence.begin(), v.evidence.end());
  }
  if (finite == 0) return Verdict::vacuous("no finite row");
  return all;
}

}  // namespace

Verdict check_softmax_accuracy(const Case& c, Executor& ex) {
  return for_each_finite_row(
      c, ex,
      [](std::int64_t, const std::vector<float>& row, const float* y, const props::RowOracle& o) {
        const oracle::MatchResult m =
            oracle::match_softmax(row.data(), std::ssize(row), y, o.ref, o.bound.y_ulp);
        if (!m.ok) return Verdict::fail(m.explanation);
        Verdict v;
        if (m.worst_index >= 0) {
          const auto j = static_cast<std::size_t>(m.worst_index);
          v.evidence.push_back(
              {"y[" + std::to_string(j) + "]", y[j], o.ref.y[j], m.worst_ulp, o.bound.y_ulp[j]});
        }
        return v;
      });
}

Verdict check_softmax_sum(const Case& c, Executor& ex) {
  return for_each_finite_row(
      c, ex,
      [](std::int64_t, const std::vector<float>& row, const float* y, const props::RowOracle& o) {
        // |Σ ŷ - 1| <= Σ |ŷ_j - y_j| + |summation error|, since Σ y_j = 1 exactly;
        // |ŷ_j - y_j| <= tol_j ulp(y_j) (the per-element bound);
        // summing n floats in double: error <= (n - 1) 2^-53 / (1 - (n - 1) 2^-53) Σ ŷ <= n 2^-52 Σ
        // ŷ.
        double sum = 0, allowed = 0;
        for (std::size_t j = 0; j < row.size(); ++j) {
          sum += y[j];
          allowed += o.bound.y_ulp[j] * props::ulp_above(o.ref.y[j]);
        }
        allowed += static_cast<double>(row.size()) * 0x1p-52 * sum;
        const Evidence ev{"sum of outputs", sum, 1.0, std::fabs(sum - 1), allowed};
        if (!(std::fabs(sum - 1) <= allowed))
          return Verdict::fail("outputs sum to " + props::readable(sum) +
                                   ", |sum - 1| = " + props::digits9(std::fabs(sum - 1)) +
                                   " > allowed " + props::digits9(allowed),
                               {ev});
        Verdict v;
        v.evidence.push_back(ev);
        return v;
      });
}

Verdict check_softmax_range(const Case& c, Executor& ex) {
  return for_each_finite_row(
      c, ex,
      [](std::int64_t, const std::vector<float>& row, const float* y, const props::RowOracle&) {
        for (std::size_t j = 0; j < row.size(); ++j)
          if (!(y[j] >= 0.0f && y[j] <= 1.0f))
            return Verdict::fail("y[" + std::to_string(j) + "] = " + props::hex(y[j]) +
                                     " is outside [0, 1] (x = " + props::hex(row[j]) + ")",
                                 {{"y[" + std::to_string(j) + "]", y[j], 0, 0, 0}});
        return Verdict::pass();
      });
}

}  // namespace osvs
