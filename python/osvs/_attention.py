"""AttentionKernel: a whole attention forward under osvs's attention laws (docs/semantics.md §9).

    def my_attention(q, k, v, p):          # q (total_q, heads_q, d); k, v (tokens, heads_kv, d)
        ...                                # p: cu_seqlens_q / _k, block_table, scale, mask, ...
        return o                           # (total_q, heads_q, d_v); with lse_bases: (o, lse)

    osvs.check_attention(my_attention, name="my.attention", masks=("none", "causal"), gqa=True)

fp8 K/V (docs/semantics.md §9, "fp8 K/V"): a kernel declared with ``kv_types=["e4m3"]`` (or
"e5m2", or both; ``kv_types_only=True``: never K/V in the dtype) also gets cases whose k and v
are stored in that 8-bit float type, one scale a tensor. Then k and v come as **uint8** arrays of
the stored bit patterns (same shapes), ``p.kv_type`` names the type ("e4m3", "e5m2"; None for
K/V in the dtype) and ``p.k_scale``, ``p.v_scale`` are the per-tensor scales (floats): the true
key or value is ``scale * stored``, which the oracle forms exactly; q and o stay in the dtype.
``osvs.fp8_to_float32(bits, p.kv_type)`` decodes the bits exactly:

    def my_fp8_attention(q, k, v, p):
        if p.kv_type is not None:
            k = osvs.fp8_to_float32(k, p.kv_type) * np.float32(p.k_scale)
            v = osvs.fp8_to_float32(v, p.kv_type) * np.float32(p.v_scale)
        ...

    osvs.check_attention(my_fp8_attention, name="my.fp8", kv_types=["e4m3"], accuracy=...)
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from . import _core
from ._arrays import ELEMENT_TYPES
from ._device_session import DeviceSession, HostSession, Output
from ._torch_device import device_backend

_PYTHON_TYPE = {core: name for name, (core, _) in ELEMENT_TYPES.items()}  # "bf16" -> "bfloat16"
#: The problem arrays a kernel may ask for on the device (AttentionProblem.on_device).
_ON_DEVICE = ("cu_seqlens_q", "cu_seqlens_k", "block_table", "sinks", "alibi_slopes", "lse")

#: The fp8 types K/V may be stored in (kv_types).
FP8_TYPES = ("e4m3", "e5m2")

_FP8_VALUES: Dict[str, np.ndarray] = {}


def fp8_to_float32(bits, kv_type: str) -> np.ndarray:
    """The float32 values of fp8 bit patterns (a uint8 array) of ``kv_type`` ("e4m3": OCP's
    e4m3fn, no infinities, NaN S.1111.111; "e5m2"), exactly: every fp8 value is a float32."""
    if kv_type not in FP8_TYPES:
        raise ValueError(f"kv_type {kv_type!r}: one of {FP8_TYPES}")
    if kv_type not in _FP8_VALUES:
        _FP8_VALUES[kv_type] = np.asarray(_core.fp8_values(kv_type), dtype=np.float32)
    return _FP8_VALUES[kv_type][np.asarray(bits, dtype=np.uint8)]


@dataclasses.dataclass(frozen=True)
class AttentionProblem:
    """One launch's description, as the C++ AttentionProblem (docs/semantics.md §9).

    Sequence s has queries ``cu_seqlens_q[s] ... cu_seqlens_q[s + 1] - 1`` and
    ``cu_seqlens_k[s + 1] - cu_seqlens_k[s]`` keys. Contiguous K/V (``page_size == 0``): key j of
    sequence s at token ``cu_seqlens_k[s] + j``; paged: k and v have shape
    (num_pages, page_size, heads_kv, d) and key j sits in page ``block_table[s, j // page_size]``
    at slot ``j % page_size``. ``mask`` is "none", "causal" or "window" (``window`` = (left,
    right), -1 unbounded), its diagonal ``mask_align`` ("bottom-right" or "top-left"); scores
    are ``scale * q.k``; query head h reads kv head ``h // (heads_q // heads_kv)``."""

    cu_seqlens_q: np.ndarray
    cu_seqlens_k: np.ndarray
    block_table: Optional[np.ndarray]
    scale: float
    softcap: float  # > 0: scores softcap * tanh(score / softcap)
    sinks: Optional[np.ndarray]  # one logit a query head in the denominator, or None
    # one ALiBi slope a query head, or None: score - slope |i + offset - j| after the softcap
    # (offset lk - lq bottom-right, 0 top-left: mask_align; flash-attention's alibi_slopes)
    alibi_slopes: Optional[np.ndarray]
    mask: str
    mask_align: str
    window: Tuple[int, int]
    base: str
    page_size: int
    heads_q: int
    heads_kv: int
    head_dim_qk: int
    head_dim_v: int
    dtype: str  # "float32", "bfloat16" or "float16"
    # the split count or size (as the kernel's split_by declares) the launch asks for; 0: the
    # kernel's own choice (always 0 for a kernel that declares no splits)
    kv_splits: int = 0
    # A backward kernel's (``backward=True``) inputs: the gradient of o, shape (total_q, heads_q,
    # head_dim_v), in dtype (bfloat16 as its bits, as q), and the forward's o (the same shape)
    # and lse (float32, in the declared layout) as osvs's oracle rounds them (lse None when the
    # kernel declares no lse_bases).
    dout: Optional[np.ndarray] = None
    o: Optional[np.ndarray] = None
    lse: Optional[np.ndarray] = None
    # With device=: uploads a problem array once per distinct value (on_device)
    _device_array: Optional[Callable[[str, np.ndarray], Any]] = dataclasses.field(
        default=None, repr=False, compare=False)
    # fp8 K/V (a kernel declaring kv_types): k and v are uint8 arrays of kv_type's bits ("e4m3",
    # "e5m2"; None: K/V in dtype), the true keys and values k_scale and v_scale times the stored
    # ones (fp8_to_float32 decodes them); q and o in dtype. Both scales 1 without fp8 K/V.
    kv_type: Optional[str] = None
    k_scale: float = 1.0
    v_scale: float = 1.0

    @property
    def causal(self) -> bool:
        return self.mask == "causal"

    def on_device(self, name: str) -> Any:
        """With ``device=``: the problem's array ``name`` (``cu_seqlens_q``, ``cu_seqlens_k``,
        ``block_table``, ``sinks``, ``alibi_slopes`` or a backward's ``lse``) as an array on that
        device (int32 / float32), copied there once for each distinct value during a law; None
        where the problem has none. The kernel gets a copy of its own."""
        if name not in _ON_DEVICE:
            raise ValueError(f"problem.on_device({name!r}): one of {', '.join(_ON_DEVICE)}")
        if self._device_array is None:
            raise ValueError("problem.on_device: the check hands the kernel host arrays (no "
                             "device=)")
        value = getattr(self, name)
        return None if value is None else self._device_array(name, value)


@dataclasses.dataclass
class AttentionKernel:
    """A black-box attention forward: ``fn(q, k, v, problem) -> o`` or ``(o, lse)``; with
    ``backward=True`` its gradients: ``fn(q, k, v, problem) -> (dq, dk, dv)`` (``(dq, dk, dv,
    delta)`` with ``writes_delta``), shaped like q, k and v, in their type (delta float32, the lse's
    layout), from ``problem.dout`` (and the forward's ``problem.o`` and ``problem.lse`` if it
    reads them), judged by ``grad_accuracy`` (ulps, ulps_per_term, per_score, underflow;
    docs/semantics.md §9.4). A backward kernel that declares ``sinks`` returns, where
    ``problem.sinks`` is not None, one more array: dsinks, float32, shape (heads_q,), the gradient
    of each head's sink summed over every query of the batch (the lse it is given holds the
    sink's term).

    q, k, v come as NumPy arrays of ``dtype`` (bfloat16 as its uint16 bits, which ``to_input``
    may turn into what the kernel takes, e.g. a torch tensor on the GPU), or, with ``device``
    ("cuda", "cpu", a torch.device), as torch tensors on that device (bfloat16 as
    torch.bfloat16) that osvs copies there once for each distinct value during a law, reading
    back only the outputs the device does not find bitwise equal to an earlier output (the
    verdicts are the host path's; ``problem.on_device`` gives the problem's arrays there); o is
    returned in the same type, shape (total_q, heads_q, head_dim_v); with ``lse_bases`` the
    kernel also returns the float32 lse, shape (heads_q, total_q) (``lse_layout="heads_tokens"``)
    or (total_q, heads_q). The declaration says what it supports: ``dtypes``, ``masks``,
    ``mask_align``, ``gqa`` (``gqa_bitwise``), ``varlen``, ``page_sizes`` (``paged_only``), ``head_dims``,
    ``batch_bitwise`` and ``page_bitwise`` (whether the invariance laws ask for the bits),
    ``split_by`` ("count" or "size": it cuts each sequence's keys into splits, ``problem.kv_splits``
    one of ``kv_splits`` or 0 for its own choice) with ``split_bitwise``, ``chunk_bitwise`` and
    ``decode_bitwise`` (whether split_invariance, chunked_prefill and prefill_decode ask for the
    bits),
    ``softcap``, ``sinks`` and ``alibi`` (it applies them; cases then draw them), ``min_k_len`` (fewest
    keys a sequence), ``square_masks`` (a masked sequence has as many queries
    as keys),
    ``empty_row_lse`` ("-inf" or "+inf"), ``accuracy`` (o_ulps, o_ulps_per_key, o_per_score,
    lse_ulps, lse_ulps_per_key, lse_per_score) and ``conventions``; ``cascade_merge``: the
    registered merge kernel that merges its partials for the cascade law (a shared prefix's
    (o, lse) and the suffix's, each a call; "osvs.merge_states.cpu_model" is osvs's own), "":
    none (the law is skipped). ``kv_types`` ("e4m3", "e5m2"): it also takes K/V stored in these
    fp8 types with per-tensor scales (``kv_types_only``: only those), k and v then uint8 arrays
    and ``problem.kv_type``, ``problem.k_scale``, ``problem.v_scale`` set (the module's
    docstring)."""

    kind = "attention"  # the core's kind of kernel

    fn: Callable[..., Any]
    name: str
    dtypes: Sequence[str] = ("float32",)
    kv_types: Sequence[str] = ()  # fp8 K/V it takes: "e4m3", "e5m2"
    kv_types_only: bool = False  # True: never K/V in the dtype
    masks: Sequence[str] = ("none",)
    mask_align: str = "bottom-right"
    gqa: bool = False
    gqa_bitwise: bool = True
    batch_bitwise: bool = True  # False: batch_invariance asks for the contract, not the bits
    page_bitwise: bool = True   # False: page_layout asks for the contract, not the bits
    split_by: str = ""  # "count" or "size": it takes problem.kv_splits (split_invariance runs)
    kv_splits: Sequence[int] = ()  # the split parameters it takes besides its own choice (0)
    split_bitwise: bool = True  # False: split_invariance asks for the contract across splits
    chunk_bitwise: bool = True  # False: chunked_prefill asks for the contract, not the bits
    decode_bitwise: bool = True  # False: prefill_decode asks for the contract, not the bits
    varlen: bool = True
    # its tiles' sizes: accuracy and determinism also judge one sequence of every length T + r,
    # r = 0 ... T - 1, for each (the ragged last tile at every residue)
    tile_sizes: Sequence[int] = ()
    page_sizes: Sequence[int] = ()
    paged_only: bool = False
    head_dims: Sequence[int] = ()
    v_head_dims: Sequence[int] = ()  # v's own head_dims (empty: v's is q/k's)
    softcap: bool = False
    sinks: bool = False
    alibi: bool = False
    min_k_len: int = 0
    square_masks: bool = False
    lse_bases: Sequence[str] = ()
    lse_layout: str = "heads_tokens"
    empty_row_lse: str = "-inf"
    accuracy: Tuple[float, float, float, float, float, float] = (2, 0, 0, 8, 0, 0)
    conventions: Sequence[str] = ()
    cascade_merge: str = ""
    backward: bool = False
    writes_delta: bool = False
    grad_accuracy: Tuple[float, float, float, float] = (4, 0, 0, 0)
    skip: Dict[str, str] = dataclasses.field(default_factory=dict)
    known_defect: Dict[str, str] = dataclasses.field(default_factory=dict)
    to_input: Optional[Callable[[np.ndarray], Any]] = None
    # "cuda", "cuda:1", "cpu" or a torch.device (or a backend: _torch_device.py): osvs hands the
    # kernel torch tensors on it and reads its outputs back, each distinct input copied there
    # once a law (_device_session.py); None: NumPy arrays (through to_input)
    device: Any = None

    def declaration(self) -> dict:
        for d in self.dtypes:
            if d not in ELEMENT_TYPES:
                raise ValueError(f"dtype {d!r}: one of {sorted(ELEMENT_TYPES)}")
        for t in self.kv_types:
            if t not in FP8_TYPES:
                raise ValueError(f"kv_types {t!r}: one of {FP8_TYPES}")
        if self.kv_types_only and not self.kv_types:
            raise ValueError("kv_types_only without kv_types: name the fp8 types it takes")
        return {"name": self.name, "in_types": [ELEMENT_TYPES[d][0] for d in self.dtypes],
                "kv_types": list(self.kv_types), "kv_types_only": bool(self.kv_types_only),
                "masks": list(self.masks), "mask_align": self.mask_align, "gqa": bool(self.gqa),
                "gqa_bitwise": bool(self.gqa_bitwise),
                "batch_bitwise": bool(self.batch_bitwise),
                "page_bitwise": bool(self.page_bitwise),
                "split_by": self.split_by, "kv_splits": [int(v) for v in self.kv_splits],
                "split_bitwise": bool(self.split_bitwise),
                "chunk_bitwise": bool(self.chunk_bitwise),
                "decode_bitwise": bool(self.decode_bitwise),
                "varlen": bool(self.varlen), "page_sizes": [int(p) for p in self.page_sizes],
                "tile_sizes": [int(t) for t in self.tile_sizes],
                "paged_only": bool(self.paged_only), "head_dims": [int(d) for d in self.head_dims],
                "v_head_dims": [int(d) for d in self.v_head_dims],
                "softcap": bool(self.softcap), "sinks": bool(self.sinks),
                "alibi": bool(self.alibi),
                "min_k_len": int(self.min_k_len), "square_masks": bool(self.square_masks),
                "lse_bases": list(self.lse_bases), "lse_layout": self.lse_layout,
                "empty_row_lse": self.empty_row_lse,
                "accuracy": tuple(float(a) for a in self.accuracy),
                "conventions": list(self.conventions), "cascade_merge": self.cascade_merge,
                "backward": bool(self.backward), "writes_delta": bool(self.writes_delta),
                "grad_accuracy": tuple(float(a) for a in self.grad_accuracy),
                "skip": dict(self.skip),
                "known_defect": dict(self.known_defect)}

    def session(self):
        """How the arrays travel during a check (_device_session.py): DeviceSession on
        ``device``, else HostSession with ``to_input``. Raises DeviceUnavailable (no torch, no
        such device) before any case runs."""
        if self.device is None:
            return HostSession(self.to_input)
        if self.to_input is not None:
            raise ValueError("to_input and device exclude each other: with device=, osvs hands "
                             "the kernel arrays on that device itself")
        return DeviceSession(device_backend(self.device))

    def _backward_inputs(self, meta, total_q, session) -> dict:
        """A backward kernel's dout, o and lse (AttentionProblem's), shaped; {} for a forward."""
        if not self.backward:
            return {}
        hq, dv = meta["heads_q"], meta["head_dim_v"]
        dout = meta["dout"].reshape(total_q, hq, dv)
        o = meta["o"].reshape(total_q, hq, dv)
        lse = None if meta["lse"] is None else meta["lse"].reshape(
            (hq, total_q) if self.lse_layout == "heads_tokens" else (total_q, hq))
        # (the core checks dout after the call, not o: a kernel's o is its own to write)
        return dict(dout=session.input("dout", dout), o=session.input("o", o, checked=False),
                    lse=lse)

    def call(self, q, k, v, cu_q, cu_k, table, meta, session=None):
        """One launch from the core (python/src/py_attention_kernel.h): the kernel's outputs as
        host arrays, its arrays travelling as ``session`` (a HostSession by default) has them."""
        session = session or HostSession(self.to_input)
        dtype = _PYTHON_TYPE[meta["dtype"]]
        hq, hk = meta["heads_q"], meta["heads_kv"]
        dqk, dv, page = meta["head_dim_qk"], meta["head_dim_v"], meta["page_size"]
        q = q.reshape(q.shape[0], hq, dqk)
        if page > 0:
            k = k.reshape(-1, page, hk, dqk)
            v = v.reshape(-1, page, hk, dv)
        else:
            k = k.reshape(k.shape[0], hk, dqk)
            v = v.reshape(v.shape[0], hk, dv)
        session.begin_call(lambda: _problem_key(cu_q, cu_k, table, meta))
        args = [session.input(n, a) for n, a in (("q", q), ("k", k), ("v", v))]
        problem = AttentionProblem(
            cu_seqlens_q=np.asarray(cu_q, dtype=np.int32), cu_seqlens_k=np.asarray(cu_k, dtype=np.int32),
            block_table=None if table is None else np.asarray(table, dtype=np.int32),
            scale=float(meta["scale"]), softcap=float(meta["softcap"]),
            sinks=None if meta["sinks"] is None else np.asarray(meta["sinks"], np.float32),
            alibi_slopes=None if meta["alibi_slopes"] is None
            else np.asarray(meta["alibi_slopes"], np.float32),
            mask=meta["mask"], mask_align=meta["mask_align"],
            window=(int(meta["window_left"]), int(meta["window_right"])), base=meta["base"],
            page_size=page, heads_q=hq, heads_kv=hk, head_dim_qk=dqk, head_dim_v=dv, dtype=dtype,
            kv_splits=int(meta["kv_splits"]), _device_array=session.on_device,
            kv_type=meta["kv_type"] if meta["kv_type"] in FP8_TYPES else None,
            k_scale=float(meta["k_scale"]), v_scale=float(meta["v_scale"]),
            **self._backward_inputs(meta, q.shape[0], session))
        result = self.fn(*args, problem)
        total_q = q.shape[0]
        lse_shape = (hq, total_q) if self.lse_layout == "heads_tokens" else (total_q, hq)

        def shaped(what, shape):
            def check(a):
                if a.shape != shape:
                    raise ValueError(f"{what}: shape {a.shape}, expected {shape}")
                return a
            return check

        def flat(what, shape):  # a float32 output of one value a row (lse, delta, dsinks)
            return lambda a: np.ascontiguousarray(shaped(what, shape)(a)).reshape(-1)

        if self.backward:
            sinks = problem.sinks is not None
            want = 3 + int(self.writes_delta) + int(sinks)
            if not isinstance(result, (tuple, list)) or len(result) != want:
                raise TypeError("a backward attention kernel returns (dq, dk, dv" +
                                (", delta" if self.writes_delta else "") +
                                (", dsinks" if sinks else "") + ")")
            outputs = [Output(g, "the kernel's " + n, n, x.shape, dtype,
                              lambda a, w="the kernel's " + n, x=x: shaped(w, x.shape)(a).reshape(
                                  x.shape[0], x.shape[1] * x.shape[2]))
                       for g, n, x in zip(result[:3], ("dq", "dk", "dv"), (q, k, v))]
            if self.writes_delta:
                outputs.append(Output(result[3], "the kernel's delta", "delta", lse_shape,
                                      "float32", flat("the kernel's delta", lse_shape)))
            if sinks:
                outputs.append(Output(result[-1], "the kernel's dsinks", "dsinks", (hq,),
                                      "float32", flat("the kernel's dsinks", (hq,))))
            return tuple(session.outputs(outputs))
        o_shape = (total_q, hq, dv)

        def o_output(x):
            return Output(x, "the kernel's o", "o", o_shape, dtype,
                          lambda a: shaped("the kernel's o", o_shape)(a).reshape(total_q, hq * dv))

        if not self.lse_bases:
            return session.outputs([o_output(result)])[0]
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise TypeError("an attention kernel that declares lse_bases returns (o, lse)")
        return tuple(session.outputs([
            o_output(result[0]),
            Output(result[1], "the kernel's lse", "lse", lse_shape, "float32",
                   flat("the kernel's lse", lse_shape))]))


def _hashable(value) -> Any:
    """A problem value as a key: lists as tuples, arrays as their type, shape and bytes."""
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.dtype.str, value.shape, value.tobytes()
    return value


def _problem_key(cu_q, cu_k, table, meta) -> tuple:
    """What, besides q, k, v (and a backward's dout and o), makes two launches identical."""
    return _hashable((cu_q, cu_k, table, sorted((k, v) for k, v in meta.items()
                                                if k not in ("dout", "o"))))
