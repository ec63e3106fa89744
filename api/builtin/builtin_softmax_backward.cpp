// osvs's reference softmax and log-softmax backward registered as row-wise kernels, in f32 and
// bf16 (builtin_softmax_backward.h).
#include "builtin_softmax_backward.h"

#include "reference_rowwise_registration.h"

OSVS_REGISTER_REFERENCE_F32_BF16(osvs::builtin::reference_backward, osvs_softmax_backward,
                                 "osvs.softmax_backward", SoftmaxBackward)
OSVS_REGISTER_REFERENCE_F32_BF16(osvs::builtin::reference_backward, osvs_log_softmax_backward,
                                 "osvs.log_softmax_backward", LogSoftmaxBackward)
