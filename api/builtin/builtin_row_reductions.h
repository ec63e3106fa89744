// osvs's reference logsumexp, LayerNorm, RMSNorm, mean / variance, cross-entropy (per row, and
// its batch mean and sum), argmax and top-k (kernels/row_reductions.h) as row-wise kernels: the
// declaration of each under a policy of its steps, which the registered entries take as written
// (builtin_row_reductions.cpp) and the mutants with one step changed
// (mutation/include/osvs/mutation/row_reduction_mutant_policies.h).
#pragma once

#include <string>

#include "osvs/api/rowwise_kernel.h"
#include "osvs/api/rowwise_ops.h"
#include "osvs/kernels/row_reductions.h"
#include "rowwise_host_rows.h"

namespace osvs::builtin {

/// The contracts derived beside the kernels (kernels/row_reductions.h).
inline RowwiseAccuracy reference_row_reduction_bound(RowwiseOp op) {
  const char* where = "kernels/include/osvs/kernels/row_reductions.h";
  const double ulps = 1.5 + 0x1p-14;
  if (op == RowwiseOp::Logsumexp) return RowwiseAccuracy::bound(ulps, 0x1p-50, 0x1p-50, where);
  if (op == RowwiseOp::LayerNorm) return RowwiseAccuracy::bound(ulps, 0x1p-49, 0x1p-51, where);
  if (op == RowwiseOp::MeanVar || op == RowwiseOp::MeanVarUnbiased)
    return RowwiseAccuracy::bound(ulps, 0x1p-50, 0x1p-51, where);
  // (the batch reductions': the same terms, n the batch's rows * cols)
  if (reads_target(op)) return RowwiseAccuracy::bound(ulps, 0x1p-50, 0x1p-50, where);
  if (op == RowwiseOp::Argmax || op == RowwiseOp::TopK) return RowwiseAccuracy::none();  // exact
  return RowwiseAccuracy::bound(ulps, 0x1p-50, 0x1p-53, where);
}

/// One row of `op` under Policy: the outputs from in (the op's arrays, signature(op)).
template <class Policy>
void reference_row_reduction(RowwiseOp op, const RowwiseParams& params,
                             const std::vector<std::vector<float>>& in,
                             std::vector<std::vector<float>>& out) {
  const auto n = static_cast<std::int64_t>(in[0].size());
  const float eps = params.eps;
  if (op == RowwiseOp::CrossEntropy) {
    out[0][0] = static_cast<float>(
        cross_entropy_row<Policy>(in[0].data(), n, static_cast<std::int64_t>(in[1][0]),
                                  params.ignore_index, params.label_smoothing));
    return;
  }
  if (op == RowwiseOp::Argmax || op == RowwiseOp::TopK) {
    const std::int64_t k = op == RowwiseOp::Argmax ? 1 : params.k;
    std::vector<std::int64_t> top(static_cast<std::size_t>(k));
    top_k_row<Policy>(in[0].data(), n, k, top.data());
    for (std::size_t i = 0; i < top.size(); ++i) {
      out.back()[i] = static_cast<float>(top[i]);  // the indices (exact: n < 2^24)
      if (op == RowwiseOp::TopK) out[0][i] = in[0][static_cast<std::size_t>(top[i])];
    }
    return;
  }
  if (op == RowwiseOp::Logsumexp) {
    out[0][0] = static_cast<float>(logsumexp_row<Policy>(in[0].data(), n));
    return;
  }
  if (op == RowwiseOp::MeanVar || op == RowwiseOp::MeanVarUnbiased) {
    const RowStatistics s =
        row_statistics<Policy>(in[0].data(), n, op == RowwiseOp::MeanVarUnbiased ? 1 : 0);
    out[0][0] = static_cast<float>(s.mean);
    out[1][0] = static_cast<float>(s.var);
    return;
  }
  std::vector<double> y(in[0].size());
  if (op == RowwiseOp::LayerNorm)
    layer_norm_row<Policy>(in[0].data(), in[1].data(), in[2].data(), eps, n, y.data());
  else
    rms_norm_row<Policy>(in[0].data(), in[1].data(), eps, n, y.data());
  for (std::size_t i = 0; i < y.size(); ++i) out[0][i] = static_cast<float>(y[i]);
}

/// The batch reduction `op` (cross_entropy_mean, cross_entropy_sum) of p under Policy: each
/// row's loss, then the one value stored.
template <class Policy>
void reference_batch_reduction(RowwiseOp op, const RowwiseProblem& p) {
  CrossEntropyBatch<Policy> batch;
  for_each_host_row(p, signature(op), [&](const auto& in, auto&) {
    batch.add(in[0].data(), p.cols, static_cast<std::int64_t>(in[1][0]), p.ignore_index,
              p.label_smoothing);
  });
  store_batch_value(p, 0, op == RowwiseOp::CrossEntropyMean ? batch.mean() : batch.sum);
}

/// The element types of op's arrays for a kernel of values of type t: t, and i64 for an index.
inline std::vector<DType> array_types(const std::vector<RowwiseArray>& arrays, DType t) {
  std::vector<DType> types;
  for (const RowwiseArray& a : arrays) types.push_back(a.index ? DType::I64 : t);
  return types;
}

/// The reference kernel of `op` (logsumexp, layer_norm, rms_norm, mean_var(_unbiased),
/// cross_entropy and its batch mean and sum, argmax, topk) under Policy, every array of values
/// of type t and every index i64, with its derived contract (argmax and topk: exact, ties to the
/// lowest index, sorted); deterministic, batch invariant and strided, not bitwise order
/// independent (its sums run left to right), scale invariant (its statistics scale exactly by
/// powers of two; argmax's comparisons do not change). The batch reductions sum the rows in
/// their order: not batch invariant bit for bit (within the contract in any order); the mean
/// of no counted row NaN (mean_of_none nan), rms_norm's infinite row NaN (inf_row nan).
template <class Policy = RowReductionAsWritten>
RowwiseKernel reference_row_kernel(std::string name, RowwiseOp op, DType t) {
  const RowwiseSignature& sig = signature(op);
  return RowwiseKernel(std::move(name), Where::Host)
      .op(op)
      .types(array_types(sig.inputs, t), array_types(sig.outputs, t))
      .run([op](const RowwiseProblem& p) {
        if (reduces_batch(op)) return reference_batch_reduction<Policy>(op, p);
        for_each_host_row(p, signature(op), [&](const auto& in, auto& out) {
          reference_row_reduction<Policy>(op, p, in, out);
        });
      })
      .batch_invariant(!reduces_batch(op))
      .accuracy(reference_row_reduction_bound(op));
}

}  // namespace osvs::builtin
