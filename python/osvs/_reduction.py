"""A state reduction declared in Python: its state's fields, identity, lift, combine, finalise,
claims and exact reference, under the reduction laws of the C++ core (api/README.md, "State
reductions").

The CPU model is the harness's order (kernels/harness_model.h), schedule for schedule: each chunk
folded from the identity by ``combine(state, lift(x, index))`` left to right, the chunks placed in
slots, then ``slot[dst] = combine(slot[dst], slot[src])`` for each merge in order. It runs
vectorised across the launch: step t of the folds combines the t-th element of every chunk long
enough in one call, and merge k of every schedule in one call, so a state is a tuple of NumPy
arrays, one per field (``vectorised=False``: callables of one element's scalars, looped here).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

#: A field's type by its NumPy name.
FIELD_TYPES = {name: np.dtype(name) for name in (
    "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64")}

State = Tuple[np.ndarray, ...]


def _fields(fields: Dict[str, str], what: str):
    if not fields:
        raise ValueError(f"{what}: at least one field, e.g. {{'max': 'float32'}}")
    out = []
    for name, t in fields.items():
        if t not in FIELD_TYPES:
            raise ValueError(f"{what}: field {name!r} of type {t!r} is none of "
                             + ", ".join(FIELD_TYPES))
        out.append((name, t))
    return out


@dataclasses.dataclass
class Reduction:
    """A user-defined state reduction.

    ``fields``: the state's fields in order, name -> type (float32, float64, int8 ... uint64).
    ``identity``: one value per field. ``lift(x, index)``: the state of one element (float32)
    and its index in the row (int64). ``combine(a, b)``: the state of two states. ``finalise``:
    the result of a state (default: the state itself), with ``result_fields`` (default: the
    state's). Vectorised (the default), every state is a tuple of arrays, one per field, and each
    callable returns one array per field of its declared type; ``vectorised=False``: scalars of
    one element (converted to the fields' types).

    ``reference(row)``: the exact finalised result of a float32 row, one number per result field
    (the empty row's included). ``tolerance``: None (exact results), one absolute tolerance per
    result field, or ``f(field, row, depth, exact)``. Claims, never inferred: ``commutative``
    (a (+) b has the bits of b (+) a), ``exact_identity`` (identity (+) s has the bits of s).
    ``max_abs``: the domain the finite values are drawn from. ``cpu_model``: a registered C++
    reduction whose bits this one claims.
    """

    name: str
    fields: Dict[str, str]
    identity: Sequence[Any]
    lift: Callable[..., Any]
    combine: Callable[..., Any]
    reference: Callable[[np.ndarray], Sequence[float]]
    finalise: Optional[Callable[..., Any]] = None
    result_fields: Optional[Dict[str, str]] = None
    commutative: bool = False
    exact_identity: bool = False
    tolerance: Union[None, float, Sequence[float], Callable[..., float]] = None
    max_abs: float = 65536.0
    vectorised: bool = True
    cpu_model: str = ""
    skip: Dict[str, str] = dataclasses.field(default_factory=dict)
    known_defect: Dict[str, str] = dataclasses.field(default_factory=dict)
    description: str = ""

    def __post_init__(self):
        self._state = _fields(self.fields, "fields")
        self._result = (_fields(self.result_fields, "result_fields")
                        if self.result_fields is not None else self._state)
        if self.result_fields is not None and self.finalise is None:
            raise ValueError("result_fields without finalise: the result is the state itself")
        if len(self.identity) != len(self._state):
            raise ValueError(f"identity: {len(self.identity)} values for {len(self._state)} "
                             f"fields ({', '.join(n for n, _ in self._state)})")

    def declaration(self) -> dict:
        tol = self.tolerance
        if tol is not None and not callable(tol):
            tol = [float(t) for t in (tol if isinstance(tol, (list, tuple)) else
                                      [tol] * len(self._result))]
            if len(tol) != len(self._result):
                raise ValueError(f"tolerance: {len(tol)} values for {len(self._result)} result "
                                 "fields")
        return {"name": self.name, "fields": self._state, "result_fields": self._result,
                "commutative": bool(self.commutative),
                "exact_identity": bool(self.exact_identity), "max_abs": float(self.max_abs),
                "cpu_model": self.cpu_model, "reference": self._reference, "tolerance": tol,
                "skip": dict(self.skip), "known_defect": dict(self.known_defect),
                "description": self.description}

    def _reference(self, row: np.ndarray):
        return [float(v) for v in self.reference(row)]

    # --- the CPU model (the harness's order, vectorised across the launch)

    def _typed(self, values, fields, what: str) -> State:
        values = tuple(values) if isinstance(values, (tuple, list)) else (values,)
        if len(values) != len(fields):
            raise TypeError(f"{what} returned {len(values)} fields; declared "
                            + ", ".join(f"{n} {t}" for n, t in fields))
        out = []
        for v, (name, t) in zip(values, fields):
            v = np.asarray(v)
            if self.vectorised and v.dtype != FIELD_TYPES[t]:
                raise TypeError(f"{what} returned field {name!r} as {v.dtype}; declared {t}")
            out.append(v.astype(FIELD_TYPES[t], copy=False))
        return tuple(out)

    def _call(self, fn, what: str, fields, *args) -> State:
        if self.vectorised:
            return self._typed(fn(*args), fields, what)
        n = len(np.asarray(args[0][0] if isinstance(args[0], tuple) else args[0]))
        per = [self._typed(fn(*(tuple(f[j] for f in a) if isinstance(a, tuple) else a[j]
                                for a in args)), fields, what) for j in range(n)]
        return tuple(np.array([p[k] for p in per], dtype=FIELD_TYPES[t]).reshape(n)
                     for k, (_, t) in enumerate(fields))

    def _combine(self, a: State, b: State) -> State:
        return self._call(self.combine, "combine", self._state, a, b)

    def call(self, s: Dict[str, np.ndarray]):
        """One launch as the core makes it (py_reduction_kernel.h): the schedules' root states'
        and finalised results' field bits."""
        values, n = s["values"], len(s["root"])
        num_chunks, num_merges = s["num_chunks"], s["num_merges"]
        case_of_chunk = np.repeat(np.arange(n), num_chunks)
        at = np.arange(len(case_of_chunk)) + case_of_chunk  # each case has chunks + 1 offsets
        first, last = s["chunk_offsets"][at], s["chunk_offsets"][at + 1]
        start = s["row_begin"][case_of_chunk] + first
        chunks = tuple(np.full(len(at), v, dtype=FIELD_TYPES[t])
                       for v, (_, t) in zip(self.identity, self._state))
        for t in range(int((last - first).max(initial=0))):
            on = np.nonzero(last - first > t)[0]
            lifted = self._call(self.lift, "lift", self._state, values[start[on] + t],
                                (first[on] + t).astype(np.int64))
            for f, v in zip(chunks, self._combine(tuple(f[on] for f in chunks), lifted)):
                f[on] = v
        case_of_slot = np.repeat(np.arange(n), s["num_slots"])
        slots = tuple(f[s["chunk_begin"][case_of_slot] + s["slot_chunk"]] for f in chunks)
        case_of_merge = np.repeat(np.arange(n), num_merges)
        step = np.arange(len(case_of_merge)) - s["merge_begin"][case_of_merge]
        base = s["slot_begin"][case_of_merge]
        for k in range(int(num_merges.max(initial=0))):
            on = np.nonzero(step == k)[0]
            dst, src = base[on] + s["merge_dst"][on], base[on] + s["merge_src"][on]
            for f, v in zip(slots, self._combine(tuple(f[dst] for f in slots),
                                                 tuple(f[src] for f in slots))):
                f[dst] = v
        roots = tuple(f[s["slot_begin"] + s["root"]] for f in slots)
        results = (self._call(self.finalise, "finalise", self._result, roots)
                   if self.finalise is not None else roots)
        return _bits(roots), _bits(results)


def _bits(state: State) -> np.ndarray:
    """(schedules, fields) uint64: each field's bits zero-extended (state_fields.h field_bits)."""
    cols = [f.view(np.dtype(f"uint{8 * f.dtype.itemsize}")).astype(np.uint64) for f in state]
    return np.ascontiguousarray(np.stack(cols, axis=1)) if cols else np.zeros((0, 0), np.uint64)
