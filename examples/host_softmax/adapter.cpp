// Puts the host kernels of host_softmax.h under osvs: the whole adapter.
#include <osvs/osvs.h>

#include "host_softmax.h"

OSVS_REGISTER_ROW_KERNEL(host_softmax) {
  return osvs::RowKernel("example.host_softmax", osvs::Where::Host)
      .softmax()
      .run([](const osvs::RowProblem& p) {
        example::host_softmax(p.x<float>(), p.y<float>(), p.rows, p.cols, p.x_stride, p.y_stride);
      })
      .accuracy(osvs::Accuracy::ulps(1))  // exp and sum in double, one rounding to float
      .exact_shift_invariant();
}

OSVS_REGISTER_ROW_KERNEL(host_log_softmax) {
  return osvs::RowKernel("example.host_log_softmax", osvs::Where::Host)
      .log_softmax()
      .run([](const osvs::RowProblem& p) {
        example::host_log_softmax(p.x<float>(), p.y<float>(), p.rows, p.cols, p.x_stride,
                                  p.y_stride);
      })
      .accuracy(osvs::Accuracy::ulps(1));
}
