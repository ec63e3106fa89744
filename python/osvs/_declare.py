"""Kernel declarations: what a kernel computes, its conventions and its accuracy contract.

The same declarations as the C++ ``osvs::RowKernel`` and ``osvs::MergeKernel``
(api/README.md), nothing inferred: a law not declared exact is judged within the accuracy
contract, and a kernel without a contract is measured but cannot fail ``accuracy``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._arrays import ELEMENT_TYPES, on_host

#: ``accuracy=``: None (no contract), a number of ulps, a function ``f(n, range)`` of the row's
#: length and range (max - min of its finite values) with its formula as a string, or
#: ``derived(...)``.
AccuracySpec = Union[None, float, Callable[[int, float], float],
                     Tuple[Callable[[int, float], float], str], Tuple[str, str, str, int]]


def derived(kernel: str = "two_pass", combine: str = "hardened", block: int = 256,
            exp: str = "") -> tuple:
    """The a-priori bound osvs derives for one of its reduction shapes (``Accuracy::derived``).

    ``exp`` names the exp the kernel calls, whose verified figure the bound takes: "" (the
    host's glibc expf for a Python kernel), "cuda_expf", "cuda_fast_expf" (``__expf``),
    "glibc_expf" or "portable_expf"."""
    return ("derived", kernel, combine, block, exp)


def _accuracy(a: Any) -> Any:
    if a is None or isinstance(a, tuple):
        return a
    if callable(a):
        return (a, getattr(a, "__doc__", None) or getattr(a, "__name__", "python function"))
    return float(a)


def _element_type_of(a: np.ndarray) -> str:
    """The ELEMENT_TYPES name of an array the core made (bfloat16 travels as uint16 bits)."""
    for name, (_, dtypes) in ELEMENT_TYPES.items():
        if a.dtype == dtypes[0]:
            return name
    raise TypeError(f"an array of dtype {a.dtype} is none of {', '.join(ELEMENT_TYPES)}")


@dataclasses.dataclass
class SoftmaxKernel:
    """A black-box softmax (or log-softmax) kernel: ``fn(x) -> y`` on a batch of rows.

    ``fn`` gets x as a NumPy array of shape (rows, cols) of ``dtype`` (rows may be padded: x is
    then a strided view; bfloat16 comes as uint16 bits) or whatever ``to_input`` makes of it (a
    torch tensor on the GPU, say), and returns y of the same shape and type: a NumPy array or any
    ``__dlpack__`` object (a torch bfloat16 tensor is read as its bits).
    """

    fn: Callable[[Any], Any]
    name: str
    log: bool = False
    dtype: str = "float32"  # input and output: float32, float16, bfloat16 (as uint16 bits)
    masked_rows: str = "nan"  # a fully -inf row gives "nan" or "zero" (softmax 0, log -inf)
    pos_inf_rows: str = "nan"  # a row with +inf gives "nan" or "limit" (1/k per +inf element)
    accuracy: AccuracySpec = None
    vector_width: int = 1
    block: int = 0
    max_cols: int = 1 << 20
    # Where the algorithm changes: (name, from) or (name, from, piece) by ascending from; every
    # law judges a row at each layout's edges (docs/api.md, "Layouts").
    layouts: List[Tuple] = dataclasses.field(default_factory=list)
    strided: bool = True  # accepts padded rows (x a strided view)
    deterministic: bool = True
    batch_invariant: bool = True
    order_independent: bool = False
    exact_shift_invariant: bool = False
    flush_subnormal_outputs: bool = False  # an output whose exact value is subnormal may be 0
    error_floor: float = 0.0  # any output within this absolute error holds (a documented atol)
    skip: Dict[str, str] = dataclasses.field(default_factory=dict)
    known_defect: Dict[str, str] = dataclasses.field(default_factory=dict)
    description: str = ""
    to_input: Optional[Callable[[np.ndarray], Any]] = None

    def __post_init__(self):
        if self.masked_rows not in ("nan", "zero"):
            raise ValueError(f"masked_rows={self.masked_rows!r}: 'nan' or 'zero'")
        if self.pos_inf_rows not in ("nan", "limit"):
            raise ValueError(f"pos_inf_rows={self.pos_inf_rows!r}: 'nan' or 'limit'")
        if self.dtype not in ELEMENT_TYPES:
            raise ValueError(f"dtype={self.dtype!r}: one of {', '.join(ELEMENT_TYPES)}")

    def declaration(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
             if f.name not in ("fn", "to_input")}
        d["accuracy"] = _accuracy(self.accuracy)
        d["dtype"] = ELEMENT_TYPES[self.dtype][0]
        return d

    def call(self, x: np.ndarray) -> np.ndarray:
        """One launch as the core makes it: x in, the float32 result on the host out."""
        y = self.fn(self.to_input(x) if self.to_input else x)
        return on_host(y, "the kernel's result", self.dtype)


@dataclasses.dataclass
class MergeKernel:
    """A black-box merge of attention partials: ``fn(o_a, lse_a, o_b, lse_b) -> (o, lse)``.

    As rows (``lse_layout=None``, the default): o has shape (rows, head_dim), lse shape (rows,).
    In an engine's shapes (``lse_layout="tokens_heads"``, FlashInfer's merge_state, or
    ``"heads_tokens"``, vLLM's merge_attn_states): o has shape (tokens, heads, head_dim) and lse
    shape (tokens, heads) or (heads, tokens); with ``o_strided=True`` each o is a strided view of
    a buffer padded per head and per token, as an engine's slices of a larger tensor are. o is of
    one of ``o_dtypes`` (float32, float16, or bfloat16 as uint16 bits) and the result's o of the
    same type; lse is float32 in base ``lse_bases[0]`` (with two bases declared, fn is also given
    ``base="e"`` or ``base="2"``). An empty partial has lse -inf (or +inf with
    ``empty_partial="+inf"``); its o is never read. ``conventions`` names what the kernel
    documents about values the arithmetic leaves open (docs/semantics.md §8): "any_nan_bits",
    "either_zero_sign", "empty_o_unspecified". ``head_dims`` (a list) and ``head_dim_multiple``
    restrict the head_dims drawn to those the kernel takes.
    """

    fn: Callable[..., Tuple[Any, Any]]
    name: str
    lse_bases: Sequence[str] = ("e",)
    empty_partial: str = "-inf"
    skip: Dict[str, str] = dataclasses.field(default_factory=dict)
    known_defect: Dict[str, str] = dataclasses.field(default_factory=dict)
    to_input: Optional[Callable[[np.ndarray], Any]] = None
    conventions: Sequence[str] = ()
    head_dims: Sequence[int] = ()  # empty: any of 1 ... 256
    head_dim_multiple: int = 1
    o_dtypes: Sequence[str] = ("float32",)
    lse_layout: Optional[str] = None  # None (rows), "tokens_heads" or "heads_tokens"
    o_strided: bool = False

    def __post_init__(self):
        for t in self.o_dtypes:
            if t not in ELEMENT_TYPES:
                raise ValueError(f"o_dtypes: {t!r} is not one of {', '.join(ELEMENT_TYPES)}")
        if not self.o_dtypes:
            raise ValueError("o_dtypes: at least one of " + ", ".join(ELEMENT_TYPES))
        if self.lse_layout not in (None, "tokens_heads", "heads_tokens"):
            raise ValueError(f"lse_layout={self.lse_layout!r}: None (rows), 'tokens_heads' or "
                             "'heads_tokens'")
        if self.o_strided and self.lse_layout is None:
            raise ValueError("o_strided: o is padded per head and per token, which only the "
                             "engine shapes carry (declare lse_layout 'tokens_heads' or "
                             "'heads_tokens')")

    def declaration(self) -> dict:
        return {"name": self.name, "lse_bases": list(self.lse_bases),
                "empty_partial": self.empty_partial, "skip": dict(self.skip),
                "known_defect": dict(self.known_defect), "conventions": list(self.conventions),
                "head_dims": [int(d) for d in self.head_dims],
                "head_dim_multiple": int(self.head_dim_multiple),
                "o_dtypes": [ELEMENT_TYPES[t][0] for t in self.o_dtypes],
                "lse_layout": self.lse_layout, "o_strided": bool(self.o_strided)}

    def call(self, o_a, lse_a, o_b, lse_b, base: str):
        o_dtype = _element_type_of(o_a)
        args = [o_a, lse_a, o_b, lse_b]
        if self.to_input:
            args = [self.to_input(a) for a in args]
        kwargs = {"base": base} if len(self.lse_bases) > 1 else {}
        result = self.fn(*args, **kwargs)
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise TypeError("a merge kernel returns (o, lse)")
        return (on_host(result[0], "the kernel's o", o_dtype),
                on_host(result[1], "the kernel's lse"))
