// osvs's reference softmax and log-softmax backward (kernels/softmax_backward.h) as row-wise
// kernels: the declaration of the kernel under a policy of its steps, which the registered
// entries take as written (builtin_softmax_backward.cpp) and the mutants with one step changed
// (mutation/include/osvs/mutation/softmax_backward_mutant_policies.h).
#pragma once

#include <string>
#include <vector>

#include "osvs/api/rowwise_kernel.h"
#include "osvs/kernels/softmax_backward.h"

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
  const auto n = static_cast<std::size_t>(p.cols);
  std::vector<float> a(n), dy(n), dx(n);
  const auto at = [](const auto& array, std::int64_t row) {
    return static_cast<const unsigned char*>(array.ptr) +
           static_cast<std::size_t>(row * array.stride) * size_of(array.type);
  };
  for (std::int64_t i = 0; i < p.rows; ++i) {
    load_from(p.inputs[0].type, at(p.inputs[0], i), a.data(), p.cols);
    load_from(p.inputs[1].type, at(p.inputs[1], i), dy.data(), p.cols);
    if (op == RowwiseOp::SoftmaxBackward)
      softmax_backward_row<Policy>(a.data(), dy.data(), dx.data(), p.cols);
    else
      log_softmax_backward_row<Policy>(a.data(), dy.data(), dx.data(), p.cols);
    store_as(p.outputs[0].type, dx.data(),
             static_cast<unsigned char*>(p.outputs[0].ptr) +
                 static_cast<std::size_t>(i * p.outputs[0].stride) * size_of(p.outputs[0].type),
             p.cols);
  }
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
