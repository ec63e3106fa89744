// The oracle's view of one row run by the Case's kernel: its exact reference and derived bound,
// and the metamorphic comparison of two runs of rows with the same exact softmax.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "osvs/oracle/bounds.h"
#include "osvs/oracle/reference.h"
#include "osvs/properties/case.h"
#include "osvs/properties/verdict.h"

namespace osvs::props {

struct RowOracle {
  oracle::RowReference ref;
  oracle::SoftmaxBound bound;  ///< empty y_ulp unless ref.kind is Finite
};

/// Reference and bound for `row` under c's kernel, combine and block, with the exp accuracy given.
RowOracle row_oracle(const Case& c, const std::vector<float>& row, double exp_ulp);

/// The bound for `row` under c's configuration (finite rows only).
oracle::SoftmaxBound row_bound(const Case& c, const std::vector<float>& row, double exp_ulp);

/// An upper bound on ulp(y) for the exact y that `approx` approximates within kReferenceRelErr
/// relative.
double ulp_above(double approx);

/// For every j: |a[j] - b[map(j)]| <= (tol_a[j] + tol_b[map(j)]) ulp(y[map(j)]), where y = ref.y
/// is the exact softmax of b's row; both runs within their own bounds imply it (triangle law).
Verdict compare_runs(const float* a, const std::vector<double>& tol_a, const float* b,
                     const std::vector<double>& tol_b, const oracle::RowReference& ref,
                     const std::function<std::int64_t(std::int64_t)>& map, const std::string& what);

}  // namespace osvs::props
