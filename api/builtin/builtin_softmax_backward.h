// osvs's reference softmax and log-softmax backward (kernels/softmax_backward.h) as row-wise
// kernels: the declaration of the kernel under a policy of its steps, which the registered
// entries take as written (builtin_softmax_backward.cpp) and the mutants with one step changed
// (mutation/include/osvs/mutation/softmax_backward_mutant_policies.h).
#pragma once

#include <string>

#include "osvs/api/rowwise_kernel.h"
#include "osvs/kernels/softmax_backward.h"
#include "rowwise_host_rows.h"

namespace osvs::builtin {

/// The contract derived beside the kernel (kernels/softmax_backward.h): (1.5 + 2^-14) ulp of the
/// output type + (2^-51 + 2^-52 n) cond.
inline RowwiseAccuracy reference_backward_bound() {
  return RowwiseAccuracy::bound(1.5 + 0x1p-14, 0x1p-51, 0x1p-52,
                                "kernels/include/osvs/kernels/softmax_backward.h");
}

/// Each row of the launch loaded as floats, its dx computed under Policy and stored in the
/// output's type.
template <class Policy>
void run_reference_backward(RowwiseOp op, const RowwiseProblem& p) {
  for_each_host_row(p, signature(op), [&](const auto& in, auto& out) {
    if (op == RowwiseOp::SoftmaxBackward)
      softmax_backward_row<Policy>(in[0].data(), in[1].data(), out[0].data(), p.cols);
    else
      log_softmax_backward_row<Policy>(in[0].data(), in[1].data(), out[0].data(), p.cols);
  });
}

/// The reference backward of `op` under Policy, inputs and output of type t, with its derived
/// contract; deterministic, batch invariant and strided, not bitwise order independent (its
/// sums run left to right).
template <class Policy = BackwardAsWritten>
RowwiseKernel reference_backward(std::string name, RowwiseOp op, DType t) {
  return RowwiseKernel(std::move(name), Where::Host)
      .op(op)
      .types({t, t}, {t})
      .run([op](const RowwiseProblem& p) { run_reference_backward<Policy>(op, p); })
      .accuracy(reference_backward_bound());
}

}  // namespace osvs::builtin
