"""Row-wise kernels: softmax and log-softmax backward, as torch's _softmax_backward_data and
_log_softmax_backward_data compute them.

    def softmax_backward(y, dy):                     # NumPy arrays (rows, cols)
        s = (y.astype(np.float64) * dy).sum(axis=1, keepdims=True)
        return (y * (dy - s)).astype(np.float32)

    osvs.check_softmax_backward(softmax_backward, name="my.softmax_backward",
                                accuracy=osvs.REFERENCE_BACKWARD_BOUND)

The laws (osvs.rowwise_laws()), the oracle (the exact dx of the inputs as given, correctly
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


@dataclasses.dataclass
class SoftmaxBackwardKernel:
    """A softmax backward ``fn(y, dy) -> dx`` (``log=True``: log-softmax backward,
    ``fn(z, dy) -> dx`` with z the log-softmax output), row by row.

    ``fn`` gets two NumPy arrays of shape (rows, cols) of ``dtype`` (strided views where rows
    are padded; bfloat16 as uint16 bits), or what ``to_input`` makes of each (a torch tensor on
    the GPU), and returns dx of shape (rows, cols) and type ``out_dtype`` (default ``dtype``).
    ``accuracy``: None (no contract: accuracy is not judged) or (ulps, cond_rel,
    cond_rel_per_element).
    """

    fn: Callable[[Any, Any], Any]
    name: str
    log: bool = False
    dtype: str = "float32"
    out_dtype: Optional[str] = None
    accuracy: Optional[Tuple[float, float, float]] = None
    bound_derivation: str = ""
    max_cols: int = 1 << 16
    strided: bool = True
    deterministic: bool = True
    batch_invariant: bool = True
    order_independent: bool = False
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

    def declaration(self) -> dict:
        code = ELEMENT_TYPES[self.dtype][0]
        return {"name": self.name,
                "op": "log_softmax_backward" if self.log else "softmax_backward",
                "in_types": [code, code], "out_types": [ELEMENT_TYPES[self.output_dtype][0]],
                "accuracy": None if self.accuracy is None else [float(a) for a in self.accuracy],
                "bound_derivation": self.bound_derivation, "max_cols": int(self.max_cols),
                "strided": self.strided, "deterministic": self.deterministic,
                "batch_invariant": self.batch_invariant,
                "order_independent": self.order_independent, "skip": dict(self.skip),
                "known_defect": dict(self.known_defect), "description": self.description}

    def call(self, inputs) -> np.ndarray:
        """One launch as the core makes it: the inputs in, dx on the host out."""
        args = [self.to_input(a) if self.to_input else a for a in inputs]
        return on_host(self.fn(*args), "the kernel's dx", self.output_dtype)
