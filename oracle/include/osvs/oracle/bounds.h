// A-priori error bounds of each kernel, derived from the accuracy of its primitives and its
// reduction order (kernels/block_schedule.h, kernels/harness_model.h) — never fitted.
//
// The derivation is written beside the code (src/error_algebra.h, src/bounds.cpp) and summarised
// in reports/bounds.md. Every bound holds for every finite row (RowKind::Finite) and every exp
// whose error is at most `exp_ulp` ulps of the exact result (subnormal ulp 2^-149) and that
// returns exactly 1 for +-0 and exactly 0 for -inf, with IEEE binary32 +, -, *, / and fma in
// round-to-nearest, with or without the device's FMA contraction.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/index_loop.h"

namespace osvs::oracle {

struct SoftmaxBound {
  double d_rel = 0;           ///< bound on |d_hat - d| / d
  std::vector<double> y_ulp;  ///< per element: bound on ulp_distance(y_hat_j, y_j)
};

/// Bound for one finite row run by `kernel` with `combine` and `block`, where the kernels' exp has
/// at most `exp_ulp` ulps of error (osvs::kexp_max_ulp(executor.is_gpu())). Throws
/// std::invalid_argument for a row that is not Finite, an unsupported block or exp_ulp < 0.
/// `loops` may run the independent parts (the threads' stride loops, the elements' output steps)
/// on several threads: the same bound, bit for bit.
SoftmaxBound softmax_bound(KernelKind kernel, CombineKind combine, int block, const float* row,
                           std::int64_t n, double exp_ulp, const IndexLoop* loops = nullptr);

/// softmax_bound into `out`, whose storage is reused (see reference_row_into): the same bound.
void softmax_bound_into(SoftmaxBound& out, KernelKind kernel, CombineKind combine, int block,
                        const float* row, std::int64_t n, double exp_ulp,
                        const IndexLoop* loops = nullptr);

/// Bound on the relative error of d for a combine-harness case (chunk lifts, then its merges),
/// relative to the exact d of the multiset the merges combine (the row's d when every chunk is
/// merged once). Throws std::invalid_argument for a malformed case or a non-finite row.
double harness_d_bound(const HarnessCase& c, CombineKind combine, double exp_ulp);

/// Blanchard, Higham & Higham (IMA J. Numer. Anal. 2021), Theorem for left-to-right shifted
/// softmax: ||y_hat - y||_inf / ||y||_inf <= [n + 2 + 2 (x_max - x_min)] u, u = 2^-24 (first-order
/// form; for comparison only).
double bhh_softmax_bound(const float* row, std::int64_t n);

}  // namespace osvs::oracle
