"""Arrays at the kernel's border: what a kernel returns, read back through DLPack.

A kernel may return a NumPy array, or any object with ``__dlpack__`` (a torch tensor, a CuPy or
JAX array). A CPU array is imported without a copy; one in device memory is copied to the host
through DLPack's ``dl_device`` request, or, for producers that do not honour it, through its
``.cpu()``. osvs judges float32 outputs: another dtype is an error, never a silent cast.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def to_host(obj: Any, what: str) -> np.ndarray:
    """``obj`` as a NumPy array in host memory (no copy when it already is one)."""
    if isinstance(obj, np.ndarray):
        return obj
    if isinstance(obj, np.generic):  # a NumPy scalar (a batch reduction's value): a 0-d array
        return np.asarray(obj)
    if hasattr(obj, "__dlpack__"):
        try:
            return np.from_dlpack(obj)
        except (BufferError, RuntimeError, TypeError, ValueError):
            pass  # in device memory, or a tensor that must be detached: copied below
        try:
            return np.from_dlpack(obj, device="cpu", copy=True)
        except (BufferError, RuntimeError, TypeError, ValueError, NotImplementedError):
            pass
        if hasattr(obj, "detach") and hasattr(obj, "cpu"):  # torch: detach, then to the host
            return np.from_dlpack(obj.detach().cpu())
        raise TypeError(f"{what}: cannot copy a {type(obj).__name__} to host memory via DLPack")
    raise TypeError(f"{what}: expected an array (NumPy or any __dlpack__ object), "
                    f"got {type(obj).__name__}")


#: The element types a row kernel may declare, with the NumPy dtypes they travel as: bfloat16,
#: which NumPy lacks, as its bits (uint16 in; uint16 or int16 back). int64 and int32 are the
#: index arrays' (a cross-entropy's targets, argmax's and topk's indices).
ELEMENT_TYPES = {"float32": ("f32", (np.float32,)), "float16": ("f16", (np.float16,)),
                 "bfloat16": ("bf16", (np.uint16, np.int16)), "int64": ("i64", (np.int64,)),
                 "int32": ("i32", (np.int32,))}

#: The index types among ELEMENT_TYPES.
INDEX_TYPES = ("int64", "int32")


def _bfloat16_bits(obj: Any) -> Any:
    """A torch bfloat16 tensor as int16 bits (DLPack has bfloat16, NumPy has not)."""
    if str(getattr(obj, "dtype", "")) == "torch.bfloat16":
        import torch  # only reached with a torch tensor in hand

        return obj.view(torch.int16)
    return obj


def on_host(obj: Any, what: str, dtype: str = "float32") -> np.ndarray:
    """``obj`` on the host, required to be of the element type ``dtype`` (ELEMENT_TYPES)."""
    allowed = ELEMENT_TYPES[dtype][1]
    a = to_host(_bfloat16_bits(obj) if dtype == "bfloat16" else obj, what)
    if a.dtype not in allowed:
        raise TypeError(f"{what}: dtype {a.dtype}, expected {dtype} (osvs judges the declared "
                        "output type; cast inside the kernel if it computes wider)")
    return a
