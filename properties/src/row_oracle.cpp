#include "row_oracle.h"

#include <cmath>

#include "osvs/kernels/combine_kind.h"
#include "osvs/oracle/ulp.h"
#include "support.h"

namespace osvs::props {

oracle::SoftmaxBound row_bound(const Case& c, const std::vector<float>& row, double exp_ulp) {
  // A mutant is held to the bound of the operator it was derived from.
  return oracle::softmax_bound(c.kernel, original_of(c.combine), c.block, row.data(),
                               std::ssize(row), exp_ulp);
}

RowOracle row_oracle(const Case& c, const std::vector<float>& row, double exp_ulp) {
  RowOracle o;
  o.ref = oracle::reference_row(row.data(), std::ssize(row));
  if (o.ref.kind == oracle::RowKind::Finite) o.bound = row_bound(c, row, exp_ulp);
  return o;
}

double ulp_above(double approx) {
  // |y| <= |approx| / (1 - r) < |approx| (1 + 2r), r = kReferenceRelErr; ulp_of is monotone.
  return oracle::ulp_of(std::fabs(approx) * (1 + 2 * oracle::kReferenceRelErr));
}

Verdict compare_runs(const float* a, const std::vector<double>& tol_a, const float* b,
                     const std::vector<double>& tol_b, const oracle::RowReference& ref,
                     const std::function<std::int64_t(std::int64_t)>& map,
                     const std::string& what) {
  Verdict v;
  double worst = -1;
  for (std::size_t j = 0; j < tol_a.size(); ++j) {
    const auto k = static_cast<std::size_t>(map(static_cast<std::int64_t>(j)));
    // |a - b| is exact in double: both are floats within a few ulps of one another, or the check
    // fails anyway; the division by a power of two is exact.
    const double dist = std::fabs(static_cast<double>(a[j]) - b[k]) / ulp_above(ref.y[k]);
    const double tol = tol_a[j] + tol_b[k];
    const Evidence ev{what + " y[" + std::to_string(j) + "]", a[j], b[k], dist, tol};
    if (!(dist <= tol))
      return Verdict::fail(what + ": y[" + std::to_string(j) + "] = " + readable(a[j]) + " vs " +
                               readable(b[k]) + " differ by " + digits9(dist) + " ulp > " +
                               digits9(tol),
                           {ev});
    if (tol > 0 && dist / tol > worst) {
      worst = dist / tol;
      v.evidence.assign(1, ev);
    }
  }
  return v;
}

}  // namespace osvs::props
