// A-priori error bounds of each kernel, derived from the accuracy of its primitives and its
// reduction order (kernels/block_schedule.h, kernels/harness_model.h) — never fitted.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/cases.h"

namespace osvs::oracle {

struct SoftmaxBound {
  double d_rel = 0;           ///< bound on |d_hat - d| / d
  std::vector<double> y_ulp;  ///< per element: bound on ulp_distance(y_hat_j, y_j)
};

/// Bound for one finite row run by `kernel` with `combine` and `block`, where the kernels' exp has
/// at most `exp_ulp` ulps of error (osvs::kexp_max_ulp(executor.is_gpu())).
SoftmaxBound softmax_bound(KernelKind kernel, CombineKind combine, int block, const float* row,
                           std::int64_t n, double exp_ulp);

/// Bound on the relative error of d for a combine-harness case (chunk lifts, then its merges).
double harness_d_bound(const HarnessCase& c, CombineKind combine, double exp_ulp);

}  // namespace osvs::oracle
