"""osvs from Python: softmax, log-softmax, attention-merge and attention kernels, state
reductions, softmax / log-softmax backward, logsumexp, LayerNorm and RMSNorm under osvs's laws.

    import numpy as np, osvs

    def softmax(x):                                   # the kernel under test
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

    osvs.check_softmax(softmax, name="my.softmax", accuracy=4)  # raises LawViolation on a failure

The laws, the MPFR oracle, the derived bounds, the shrinking and the regression files are the
C++ core's (osvs._core); see python/README.md.
"""

from ._attention import AttentionKernel, AttentionProblem, fp8_to_float32
from ._check import (attention_laws, check, check_argmax, check_attention, check_cross_entropy,
                     check_log_softmax, check_layer_norm, check_log_softmax_backward,
                     check_logsumexp, check_mean_var, check_merge, check_reduction,
                     check_rms_norm, check_row_reduction, check_softmax, check_softmax_backward,
                     check_topk, merge_laws, read_regression, reduction_laws, replay, row_laws,
                     rowwise_laws)
from ._declare import MergeKernel, SoftmaxKernel, derived
from ._exact import ExactAttention, exact_attention
from ._reduction import Reduction
from ._rowwise import (REFERENCE_BACKWARD_BOUND, RowReductionKernel, RowwiseKernel,
                       SoftmaxBackwardKernel)
from ._results import CheckResult, LawResult, LawViolation, ReplayResult
from ._settings import DEFAULT_SEED, Settings, defaults, set_defaults
from ._torch_device import DeviceUnavailable, TorchDevice

__all__ = ["check", "check_softmax", "check_log_softmax", "check_merge", "check_attention",
           "check_reduction", "reduction_laws", "Reduction", "check_softmax_backward",
           "check_log_softmax_backward", "rowwise_laws", "SoftmaxBackwardKernel",
           "REFERENCE_BACKWARD_BOUND", "check_row_reduction", "check_logsumexp",
           "check_layer_norm", "check_rms_norm", "check_mean_var", "check_cross_entropy",
           "check_argmax", "check_topk", "RowReductionKernel",
           "RowwiseKernel",
           "replay", "read_regression", "row_laws", "merge_laws", "attention_laws",
           "SoftmaxKernel", "MergeKernel", "AttentionKernel", "AttentionProblem", "derived",
           "CheckResult", "LawResult", "LawViolation", "ReplayResult", "Settings", "defaults",
           "set_defaults", "DEFAULT_SEED", "exact_attention", "ExactAttention",
           "DeviceUnavailable", "TorchDevice", "fp8_to_float32"]
__version__ = "0.1.0"
