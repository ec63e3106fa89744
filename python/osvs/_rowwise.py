"""Row-wise kernels: softmax and log-softmax backward, as torch's _softmax_backward_data and
_log_softmax_backward_data compute them, the row reductions logsumexp, LayerNorm, RMSNorm and
mean / variance, cross-entropy (per row, and its batch mean and sum), argmax and top-k.

    def softmax_backward(y, dy):                     # NumPy arrays (rows, cols)
        s = (y.astype(np.float64) * dy).sum(axis=1, keepdims=True)
        return (y * (dy - s)).astype(np.float32)

    osvs.check_softmax_backward(softmax_backward, name="my.softmax_backward",
                                accuracy=osvs.REFERENCE_BACKWARD_BOUND)

    osvs.check_layer_norm(lambda x, w, b, eps: my_layer_norm(x, w, b, eps),
                          name="my.layer_norm", accuracy=(2, 0, 2.0 ** -24))

    osvs.check_topk(lambda x, k: torch.topk(x, k, dim=-1), name="torch.topk",
                    to_input=lambda a: torch.from_numpy(a).cuda(), ties="any")

The laws (osvs.rowwise_laws()), the oracle (the exact outputs of the inputs as given, correctly
rounded to the output type) and the contract's form are the C++ core's: docs/semantics.md §11.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from ._arrays import ELEMENT_TYPES, INDEX_TYPES, on_host

#: The contract osvs derives for its reference backward (binary64 sums, dx rounded through
#: binary32; kernels/include/osvs/kernels/softmax_backward.h): (ulps, cond_rel,
#: cond_rel_per_element), |dx^_i - dx_i| <= ulps ulp(dx_i) + (cond_rel + cond_rel_per_element n)
#: cond_i.
REFERENCE_BACKWARD_BOUND = (1.5 + 2.0 ** -14, 2.0 ** -51, 2.0 ** -52)

#: The row reductions' inputs, in the order a kernel takes them (then eps, for the norms;
#: ignore_index and label_smoothing for cross_entropy; k for topk).
ROW_REDUCTION_INPUTS = {"logsumexp": ("x",), "layer_norm": ("x", "weight", "bias"),
                        "rms_norm": ("x", "weight"), "mean_var": ("x",),
                        "mean_var_unbiased": ("x",), "cross_entropy": ("x", "target"),
                        "argmax": ("x",), "topk": ("x",),
                        "cross_entropy_mean": ("x", "target"),
                        "cross_entropy_sum": ("x", "target")}

#: The row reductions' outputs (a kernel of several returns a tuple of them, in this order).
ROW_REDUCTION_OUTPUTS = {"logsumexp": ("lse",), "layer_norm": ("y",), "rms_norm": ("y",),
                         "mean_var": ("mean", "var"), "mean_var_unbiased": ("mean", "var"),
                         "cross_entropy": ("loss",), "argmax": ("index",),
                         "topk": ("values", "indices"), "cross_entropy_mean": ("loss",),
                         "cross_entropy_sum": ("loss",)}

#: The ops that read a target and the launch's ignore_index and label_smoothing.
CROSS_ENTROPY_OPS = ("cross_entropy", "cross_entropy_mean", "cross_entropy_sum")

#: The arrays that hold indices (of type ``index_dtype``), not values.
INDEX_ARRAYS = ("target", "index", "indices")


@dataclasses.dataclass
class RowwiseKernel:
    """What every row-wise kernel declares (SoftmaxBackwardKernel, RowReductionKernel).

    ``fn`` gets NumPy arrays of ``dtype`` (strided views where rows are padded; bfloat16 as
    uint16 bits), or what ``to_input`` makes of each (a torch tensor on the GPU), and returns
    the output of type ``out_dtype`` (default ``dtype``). ``accuracy``: None (no contract:
    accuracy is not judged) or (ulps, cond_rel, cond_rel_per_element). Index arrays (a
    cross-entropy's target, argmax's and topk's indices) are of ``index_dtype`` (int64 or int32).
    ``ties`` ("lowest" or "any") and ``sorted``: argmax's and topk's tie rule and order;
    ``label_smoothing``: whether a cross-entropy accepts label smoothing > 0; ``inf_row``
    ("nan" or "ieee"): what an rms_norm row holding +-inf gives (every y_i NaN, or the IEEE
    evaluation: +-0 at the finite elements, NaN at the infinite ones; docs/semantics.md §11.1);
    ``mean_of_none`` ("nan" or "zero"): what cross_entropy_mean gives where no row is counted
    (every target ignore_index, or no row: torch's 0 / 0 = NaN, or 0).
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
    index_dtype: str = "int64"
    ties: str = "lowest"
    sorted: bool = True
    label_smoothing: bool = True
    inf_row: str = "nan"
    mean_of_none: str = "nan"

    def __post_init__(self):
        for t in (self.dtype, self.output_dtype):
            if t not in ELEMENT_TYPES or t in INDEX_TYPES:
                raise ValueError(f"dtype {t!r}: one of float32, float16, bfloat16")
        if self.index_dtype not in INDEX_TYPES:
            raise ValueError(f"index_dtype {self.index_dtype!r}: one of {', '.join(INDEX_TYPES)}")
        if self.ties not in ("lowest", "any"):
            raise ValueError(f"ties {self.ties!r}: 'lowest' or 'any'")
        if self.inf_row not in ("nan", "ieee"):
            raise ValueError(f"inf_row {self.inf_row!r}: 'nan' or 'ieee'")
        if self.mean_of_none not in ("nan", "zero"):
            raise ValueError(f"mean_of_none {self.mean_of_none!r}: 'nan' or 'zero'")
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

    def input_names(self) -> Tuple[str, ...]:
        return ("x",) * self.input_count()

    def output_names(self) -> Tuple[str, ...]:
        return ("y",) * self.output_count()

    def input_types(self) -> list:
        """The element type of each input: index_dtype for an index array, else dtype."""
        return [self.index_dtype if n in INDEX_ARRAYS else self.dtype for n in self.input_names()]

    def output_types(self) -> list:
        """Each output's: index_dtype for indices, dtype for topk's values, else out_dtype."""
        return [self.index_dtype if n in INDEX_ARRAYS else
                self.dtype if n == "values" else self.output_dtype for n in self.output_names()]

    def declaration(self) -> dict:
        return {"name": self.name, "op": self.op_name(),
                "in_types": [ELEMENT_TYPES[t][0] for t in self.input_types()],
                "out_types": [ELEMENT_TYPES[t][0] for t in self.output_types()],
                "accuracy": None if self.accuracy is None else [float(a) for a in self.accuracy],
                "bound_derivation": self.bound_derivation, "max_cols": int(self.max_cols),
                "strided": self.strided, "deterministic": self.deterministic,
                "batch_invariant": self.batch_invariant,
                "order_independent": self.order_independent,
                "scale_invariant": self.scale_invariant, "ties": self.ties,
                "sorted": self.sorted, "label_smoothing": self.label_smoothing,
                "inf_row": self.inf_row, "mean_of_none": self.mean_of_none,
                "skip": dict(self.skip),
                "known_defect": dict(self.known_defect), "description": self.description}

    def arguments(self, inputs, params: dict) -> list:
        return [self.to_input(a) if self.to_input else a for a in inputs]

    def call(self, inputs, params: dict):
        """One launch as the core makes it: the inputs (and the launch's parameters: eps,
        label_smoothing, ignore_index, k) in, the output on the host (a tuple of them where the
        op has several)."""
        result = self.fn(*self.arguments(inputs, params))
        types = self.output_types()
        if self.output_count() == 1:
            return on_host(result, "the kernel's result", types[0])
        return tuple(on_host(r, f"the kernel's result {i}", types[i])
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
    (``fn(x) -> (mean, var)``, each of shape (rows,); the variance over n or n - 1),
    ``cross_entropy`` (``fn(x, target, ignore_index, label_smoothing) -> loss``, target and loss
    of shape (rows,), as torch's cross_entropy with reduction='none'), ``cross_entropy_mean``
    and ``cross_entropy_sum`` (the same arguments, the loss one value for the batch, a 0-d
    array or a NumPy scalar, as reduction='mean' and 'sum' give it; called with rows = 0 too,
    x of shape (0, cols): the empty batch), ``argmax``
    (``fn(x) -> index``, shape (rows,)) and ``topk`` (``fn(x, k) -> (values, indices)``, each of
    shape (rows, k)); x of shape (rows, cols), weight and bias of shape (cols,), eps and
    label_smoothing Python floats (exactly the binary32 values the oracle uses).
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

    def input_names(self) -> Tuple[str, ...]:
        return ROW_REDUCTION_INPUTS[self.op]

    def output_names(self) -> Tuple[str, ...]:
        return ROW_REDUCTION_OUTPUTS[self.op]

    def arguments(self, inputs, params: dict) -> list:
        args = super().arguments(inputs, params)
        if self.op in ("layer_norm", "rms_norm"):
            return args + [float(params["eps"])]
        if self.op in CROSS_ENTROPY_OPS:
            return args + [int(params["ignore_index"]), float(params["label_smoothing"])]
        if self.op == "topk":
            return args + [int(params["k"])]
        return args
