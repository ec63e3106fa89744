// osvs's reference softmax and log-softmax backward registered as row-wise kernels, in f32 and
// bf16 (builtin_softmax_backward.h).
#include "builtin_softmax_backward.h"

OSVS_REGISTER_ROWWISE_KERNEL(osvs_softmax_backward) {
  return osvs::builtin::reference_backward("osvs.softmax_backward",
                                           osvs::RowwiseOp::SoftmaxBackward, osvs::DType::F32);
}
OSVS_REGISTER_ROWWISE_KERNEL(osvs_softmax_backward_bf16) {
  return osvs::builtin::reference_backward("osvs.softmax_backward.bf16",
                                           osvs::RowwiseOp::SoftmaxBackward, osvs::DType::BF16);
}
OSVS_REGISTER_ROWWISE_KERNEL(osvs_log_softmax_backward) {
  return osvs::builtin::reference_backward("osvs.log_softmax_backward",
                                           osvs::RowwiseOp::LogSoftmaxBackward, osvs::DType::F32);
}
OSVS_REGISTER_ROWWISE_KERNEL(osvs_log_softmax_backward_bf16) {
  return osvs::builtin::reference_backward("osvs.log_softmax_backward.bf16",
                                           osvs::RowwiseOp::LogSoftmaxBackward, osvs::DType::BF16);
}
