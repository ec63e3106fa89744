"""The exact attention of a batch at your own shapes, to measure a kernel's output against.

    ex = osvs.exact_attention(q, k, v, cu_seqlens_q=cu, cu_seqlens_k=cu, causal=True,
                              dtype="bf16")                    # q (total_q, heads_q, d), ...
    ulps = ex.ulps(o_of_my_kernel)   # |o - exact| / ulp_bf16(M) for every element
    ex.correctly_rounded(o_of_my_kernel)   # the share of elements equal to the exact rounding

The same oracle the attention laws judge by (docs/semantics.md §9): exact scores, exact softmax,
every o component correctly rounded to ``dtype`` (and as a float64), M = sum_j p_j |v_j| (the
magnitude errors are measured in), the lse correctly rounded to float32; a certified
double-double path decides almost every query on all cores, MPFR the rest (``mpfr_queries``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from . import _core
from ._arrays import to_host
from ._attention import fp8_to_float32

_DTYPES = {"f32": "f32", "float32": "f32", "bf16": "bf16", "bfloat16": "bf16", "f16": "f16",
           "float16": "f16"}


def _float32(x: Any, what: str) -> np.ndarray:
    """x as a C-contiguous float32 NumPy array (torch bfloat16 / float16 widened exactly)."""
    if hasattr(x, "detach") and hasattr(x, "float"):  # torch: widen on its side, then copy
        x = x.detach().float().cpu().contiguous()
    a = to_host(x, what)
    if a.dtype not in (np.float32, np.float16):
        raise TypeError(f"{what}: dtype {a.dtype}; expected float32 or float16 (or a torch "
                        "tensor of any float type)")
    return np.ascontiguousarray(a, dtype=np.float32)


def _dtype_of(x: Any, dtype: Optional[str]) -> str:
    if dtype is None:
        name = str(getattr(x, "dtype", "float32")).replace("torch.", "")
        if name not in _DTYPES:
            raise TypeError(f"cannot tell the input type from dtype {name}: pass dtype=")
        return _DTYPES[name]
    if dtype not in _DTYPES:
        raise ValueError(f"dtype {dtype!r} is not one of {sorted(set(_DTYPES))}")
    return _DTYPES[dtype]


def _lengths(cu: Optional[Any], total: int, what: str) -> list[int]:
    if cu is None:
        return [total]
    c = [int(v) for v in np.asarray(to_host(cu, what) if not isinstance(cu, (list, tuple))
                                    else cu).reshape(-1)]
    if len(c) < 2 or c[0] != 0 or c[-1] != total or any(b < a for a, b in zip(c, c[1:])):
        raise ValueError(f"{what} must rise from 0 to {total} (the tokens given), got {c}")
    return [b - a for a, b in zip(c, c[1:])]


@dataclass
class ExactAttention:
    """The exact attention of every (token, head): arrays shaped like the kernel's outputs."""
    o_rounded: np.ndarray  #: (total_q, heads_q, head_dim_v) float32: correctly rounded to dtype
    o: np.ndarray          #: the same, float64 (within 2^-52 M)
    magnitude: np.ndarray  #: M = sum_j p_j |v_j|, float64
    unit: np.ndarray       #: the ulp of dtype at M: the unit of ulps()
    lse_rounded: np.ndarray  #: (total_q, heads_q) float32 (-inf: a row without keys)
    lse: np.ndarray        #: float64
    kept: np.ndarray       #: (total_q, heads_q): the keys each row attends to
    mpfr_queries: int      #: rows the certified double-double path left to MPFR
    seconds: float         #: the oracle's wall-clock time

    def ulps(self, o: Any) -> np.ndarray:
        """|o - exact| / ulp_dtype(M) for every element of o (a kernel's output, any array)."""
        got = _float32(o, "o").astype(np.float64).reshape(self.o.shape)
        return np.abs(got - self.o) / self.unit

    def correctly_rounded(self, o: Any) -> float:
        """The share of o's elements that equal the exact value correctly rounded."""
        got = _float32(o, "o").reshape(self.o_rounded.shape)
        return float(np.mean(got == self.o_rounded))


def exact_attention(q: Any, k: Any, v: Any, *, cu_seqlens_q: Any = None,
                    cu_seqlens_k: Any = None, scale: Optional[float] = None,
                    causal: bool = False, window: Optional[tuple[int, int]] = None,
                    align: str = "bottom-right", softcap: float = 0.0,
                    sinks: Optional[Sequence[float]] = None,
                    alibi_slopes: Optional[Sequence[float]] = None, lse_base: str = "e",
                    dtype: Optional[str] = None, kv_type: Optional[str] = None,
                    k_scale: float = 1.0, v_scale: float = 1.0) -> ExactAttention:
    """The exact attention of a varlen batch: q (total_q, heads_q, d), k (total_k, heads_kv, d),
    v (total_k, heads_kv, d_v), NumPy arrays or tensors (on any device: copied to the host),
    every value exact in ``dtype`` (inferred from q's dtype when not given). cu_seqlens_* as
    flash-attention's (None: one sequence). ``window=(left, right)`` (-1: unbounded) is a
    sliding window; ``causal`` the causal mask; both aligned as ``align`` says, as are the
    ``alibi_slopes`` (one a query head: score - slope |i + offset - j|). A 4-D q
    (batch, seq, heads, d) is taken as that many sequences of equal length.

    fp8 K/V (docs/semantics.md §9, "fp8 K/V"): ``kv_type`` "e4m3" or "e5m2", k and v their
    stored values (uint8 bit patterns, or floats exact in kv_type), the keys and values attended
    to k_scale k and v_scale v, exactly; ``dtype`` is then q's type (and o's)."""
    in_type = _dtype_of(q, dtype)
    if kv_type is not None:
        k, v = (fp8_to_float32(to_host(x, n), kv_type)
                if str(getattr(x, "dtype", "")).endswith("uint8") else x
                for x, n in ((k, "k"), (v, "v")))
    elif k_scale != 1.0 or v_scale != 1.0:
        raise ValueError("k_scale and v_scale scale fp8 K/V: give kv_type too")
    qs, ks, vs = (_float32(x, n) for x, n in ((q, "q"), (k, "k"), (v, "v")))
    if qs.ndim == 4:  # (batch, seq, heads, d): equal lengths
        b, lq = qs.shape[0], qs.shape[1]
        lk = ks.shape[1]
        qs, ks, vs = (x.reshape(-1, x.shape[2], x.shape[3]) for x in (qs, ks, vs))
        q_lens, k_lens = [lq] * b, [lk] * b
    else:
        if qs.ndim != 3 or ks.ndim != 3 or vs.ndim != 3:
            raise ValueError("q, k, v must be (tokens, heads, head_dim) or (batch, seq, heads, "
                             f"head_dim); got {qs.shape}, {ks.shape}, {vs.shape}")
        q_lens = _lengths(cu_seqlens_q, qs.shape[0], "cu_seqlens_q")
        k_lens = _lengths(cu_seqlens_k, ks.shape[0], "cu_seqlens_k")
    heads_q, d = qs.shape[1], qs.shape[2]
    heads_kv, d_v = vs.shape[1], vs.shape[2]
    if window is not None and causal:
        raise ValueError("give causal or a window, not both (a causal window is (left, 0))")
    mask = "window" if window is not None else "causal" if causal else "none"
    left, right = window if window is not None else (-1, -1)
    r = _core.exact_attention(
        qs.reshape(-1), ks.reshape(-1), vs.reshape(-1), q_lens, k_lens, heads_q, heads_kv, d,
        d_v, in_type, float(1 / math.sqrt(d) if scale is None else scale), mask, align,
        int(left), int(right), float(softcap), [float(s) for s in (sinks or [])],
        [float(a) for a in (alibi_slopes if alibi_slopes is not None else [])], lse_base,
        kv_type or "", float(k_scale), float(v_scale))
    rows = (qs.shape[0], heads_q)
    return ExactAttention(
        o_rounded=r["o_rounded"].reshape(*rows, d_v), o=r["o"].reshape(*rows, d_v),
        magnitude=r["magnitude"].reshape(*rows, d_v), unit=r["unit"].reshape(*rows, d_v),
        lse_rounded=r["lse_rounded"].reshape(rows), lse=r["lse"].reshape(rows),
        kept=r["kept"].reshape(rows), mpfr_queries=int(r["mpfr_queries"]),
        seconds=float(r["seconds"]))
