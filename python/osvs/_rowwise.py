"""Row-wise kernels: softmax and log-softmax backward, as torch's _softmax_backward_data and
_log_softmax_backward_data compute them, and the row reductions logsumexp, LayerNorm and RMSNorm.

    def softmax_backward(y, dy):                     # NumPy arrays (rows, cols)
        s = (y.astype(np.float64) * dy).sum(axis=1, keepdims=True)
        return (y * (dy - s)).astype(np.float32)

    osvs.check_softmax_backward(softmax_backward, name="my.softmax_backward",
                                accuracy=osvs.REFERENCE_BACKWARD_BOUND)

    osvs.check_layer_norm(lambda x, w, b, eps: my_layer_norm(x, w, b, eps),
                          name="my.layer_norm", accuracy=(2, 0, 2.0 ** -24))

The laws (osvs.rowwise_laws()), the oracle (the exact outputs of the inputs as given, correctly
rounded to the output type) and the contract's form are the C++ core's: docs/semantics.md §11.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from ._arrays import ELEMENT_TYPES, on_host

#: The contract osvs derives for its reference backward (binary64 sums, dx rounded through
#: binary32; kernels/include/osvs/kernels/softmax_backward.h): (ulps, cond_rel,
#: cond_rel_per_element), |dx^_i - dx_i| <= ulps ulp(dx_i) + (cond_rel + cond_rel_per_element n)
#: cond_i.
REFERENCE_BACKWARD_BOUND = (1.5 + 2.0 ** -14, 2.0 ** -51, 2.0 ** -52)

#: The row reductions' inputs, in the order a kernel takes them (then eps, for the norms).
ROW_REDUCTION_INPUTS = {"logsumexp": ("x",), "layer_norm": ("x", "weight", "bias"),
                        "rms_norm": ("x", "weight"), "mean_var": ("x",),
                        "mean_var_unbiased": ("x",)}

#: The row reductions' outputs (a kernel of several returns a tuple of them, in this order).
ROW_REDUCTION_OUTPUTS = {"logsumexp": ("lse",), "layer_norm": ("y",), "rms_norm": ("y",),
                         "mean_var": ("mean", "var"), "mean_var_unbiased": ("mean", "var")}


@dataclasses.dataclass
class RowwiseKernel:
    """What every row-wise kernel declares (SoftmaxBackwardKernel, RowReductionKernel).

    ``fn`` gets NumPy arrays of ``dtype`` (strided views where rows are padded; bfloat16 as
    uint16 bits), or what ``to_input`` makes of each (a torch tensor on the GPU), and returns
    the output of type ``out_dtype`` (default ``dtype``). ``accuracy``: None (no contract:
    accuracy is not judged) or (ulps, cond_rel, cond_rel_per_element).
    """

    fn: Callable[..., Any]
    name: str
    dtype: str = "float32"
    out_dtype: Optional[str] = None
    accuracy: Optional[Tuple[float, float, float]] = None
    bound_derivation: str = ""
    max_cols: int = 1 << 16
    strided: bool = True
    deterministic: bool = True
    batch_invariant: bool = True
    order_independent: bool = False
    scale_invariant: bool = True
    skip: Dict[str, str] = dataclasses.field(default_factory=dict)
    known_defect: Dict[str, str] = dataclasses.field(default_factory=dict)
    description: str = ""
    to_input: Optional[Callable[[np.ndarray], Any]] = None

    def __post_init__(self):
        for t in (self.dtype, self.output_dtype):
            if t not in ELEMENT_TYPES:
                raise ValueError(f"dtype {t!r}: one of {', '.join(ELEMENT_TYPES)}")
        if self.accuracy is not None and len(self.accuracy) != 3:
            raise ValueError("accuracy: None or (ulps, cond_rel, cond_rel_per_element)")

    @property
    def output_dtype(self) -> str:
        return self.out_dtype or self.dtype

    def op_name(self) -> str:
        raise NotImplementedError

    def input_count(self) -> int:
        raise NotImplementedError

    def output_count(self) -> int:
        return 1

    def declaration(self) -> dict:
        code = ELEMENT_TYPES[self.dtype][0]
        return {"name": self.name, "op": self.op_name(),
                "in_types": [code] * self.input_count(),
                "out_types": [ELEMENT_TYPES[self.output_dtype][0]] * self.output_count(),
                "accuracy": None if self.accuracy is None else [float(a) for a in self.accuracy],
                "bound_derivation": self.bound_derivation, "max_cols": int(self.max_cols),
                "strided": self.strided, "deterministic": self.deterministic,
                "batch_invariant": self.batch_invariant,
                "order_independent": self.order_independent,
                "scale_invariant": self.scale_invariant, "skip": dict(self.skip),
                "known_defect": dict(self.known_defect), "description": self.description}

    def arguments(self, inputs, eps: float) -> list:
        return [self.to_input(a) if self.to_input else a for a in inputs]

    def call(self, inputs, eps: float):
        """One launch as the core makes it: the inputs (and eps) in, the output on the host (a
        tuple of them where the op has several)."""
        result = self.fn(*self.arguments(inputs, eps))
        if self.output_count() == 1:
            return on_host(result, "the kernel's result", self.output_dtype)
        return tuple(on_host(r, f"the kernel's result {i}", self.output_dtype)
                     for i, r in enumerate(result))


@dataclasses.dataclass
class SoftmaxBackwardKernel(RowwiseKernel):
    """A softmax backward ``fn(y, dy) -> dx`` (``log=True``: log-softmax backward,
    ``fn(z, dy) -> dx`` with z the log-softmax output), row by row: two arrays of shape
    (rows, cols) in, dx of shape (rows, cols) out.
    """

    log: bool = False

    def op_name(self) -> str:
        return "log_softmax_backward" if self.log else "softmax_backward"

    def input_count(self) -> int:
        return 2


@dataclasses.dataclass
class RowReductionKernel(RowwiseKernel):
    """A row reduction, ``op`` one of ``logsumexp`` (``fn(x) -> lse``, shape (rows,)),
    ``layer_norm`` (``fn(x, weight, bias, eps) -> y``), ``rms_norm``
    (``fn(x, weight, eps) -> y``, shape (rows, cols)), ``mean_var`` and ``mean_var_unbiased``
    (``fn(x) -> (mean, var)``, each of shape (rows,); the variance over n or n - 1); x of shape
    (rows, cols), weight and bias of shape (cols,), eps a Python float (exactly the binary32 value
    the oracle uses).
    """

    op: str = "logsumexp"

    def __post_init__(self):
        super().__post_init__()
        if self.op not in ROW_REDUCTION_INPUTS:
            raise ValueError(f"op {self.op!r}: one of {', '.join(ROW_REDUCTION_INPUTS)}")

    def op_name(self) -> str:
        return self.op

    def input_count(self) -> int:
        return len(ROW_REDUCTION_INPUTS[self.op])

    def output_count(self) -> int:
        return len(ROW_REDUCTION_OUTPUTS[self.op])

    def arguments(self, inputs, eps: float) -> list:
        args = super().arguments(inputs, eps)
        return args + [float(eps)] if self.op in ("layer_norm", "rms_norm") else args
