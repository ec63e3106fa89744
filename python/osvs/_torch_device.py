"""The device of ``check_attention(..., device="cuda")``: torch tensors on one torch device.

torch is imported when a check names a device, never by ``import osvs``. Without torch, or with
a CUDA device that torch does not see, the check stops before its first case with
DeviceUnavailable, which says why.

The methods are those DeviceSession (_device_session.py) uses; another array library (or the
tests' NumPy stand-in, python/tests/fake_device.py) can provide the same:

    upload(a: np.ndarray)            -> a copy of a on the device (bfloat16 arrives as its uint16
                                        bits and becomes the library's bfloat16)
    copy(x)                          -> a copy of x on the device (its own memory)
    download(x)                      -> x's elements as a NumPy array (bfloat16 as 16-bit
                                        integer bits), after every queued write to x
    owns(x)                          -> whether x is an array on this device
    element_type(x)                  -> "float32", "float16", "bfloat16", "int32", ... or None
    shape(x)                         -> x's shape as a tuple
    nbytes(x)                        -> the bytes of x's elements
    differs(a, b)                    -> a flag (on the device or not) that a and b, of one shape
                                        and element type, differ in at least one element's bits
    read_flags(flags)                -> the flags as Python bools (one synchronisation)
    synchronize()                    -> returns once the device's queued work is done
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np


class DeviceUnavailable(RuntimeError):
    """A check asked for a device that this process cannot use (no torch, no such device)."""


#: torch's element types as osvs names them (the declaration's dtypes and index types).
_TYPE_NAMES = {"float32": "float32", "float16": "float16", "bfloat16": "bfloat16",
               "int32": "int32", "int64": "int64"}


class TorchDevice:
    """torch tensors on ``device`` (``"cuda"``, ``"cuda:1"``, ``"cpu"`` or a torch.device)."""

    def __init__(self, device: Any = "cuda"):
        try:
            import torch
        except ImportError as e:
            raise DeviceUnavailable(
                f"device={device!r} needs PyTorch, which this Python cannot import ({e}); "
                "leave device out to hand the kernel NumPy arrays") from None
        self.torch = torch
        try:
            self.device = torch.device(device)
        except (RuntimeError, TypeError) as e:
            raise DeviceUnavailable(f"device={device!r}: not a torch device ({e})") from None
        if self.device.type == "cuda":
            if not torch.cuda.is_available():
                raise DeviceUnavailable(
                    f"device={device!r}: torch {torch.__version__} sees no CUDA device "
                    "(torch.cuda.is_available() is False)")
            index = self.device.index if self.device.index is not None else \
                torch.cuda.current_device()
            if index >= torch.cuda.device_count():
                raise DeviceUnavailable(f"device={device!r}: torch sees "
                                        f"{torch.cuda.device_count()} CUDA device(s)")
            self.device = torch.device("cuda", index)
        elif self.device.type != "cpu":
            raise DeviceUnavailable(f"device={device!r}: osvs hands tensors to 'cuda' or 'cpu' "
                                    "devices")
        self.name = str(self.device)
        self._bits = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}

    def upload(self, a: np.ndarray):
        torch = self.torch
        if a.dtype == np.uint16:  # bfloat16 bits
            t = torch.from_numpy(np.ascontiguousarray(a).view(np.int16)).view(torch.bfloat16)
        else:
            t = torch.from_numpy(np.ascontiguousarray(a))
        return t.to(self.device, copy=True)

    def copy(self, x):
        return x.detach().clone()

    def download(self, x) -> np.ndarray:
        x = x.detach()
        if x.dtype == self.torch.bfloat16:
            x = x.view(self.torch.int16)
        # (on the cpu device .cpu() is x itself: the array shares x's memory, which is osvs's
        # own copy, never handed to a kernel)
        return x.cpu().numpy()

    def owns(self, x) -> bool:
        return isinstance(x, self.torch.Tensor) and x.device == self.device

    def element_type(self, x) -> Optional[str]:
        return _TYPE_NAMES.get(str(x.dtype).removeprefix("torch."))

    def shape(self, x) -> tuple:
        return tuple(x.shape)

    def nbytes(self, x) -> int:
        return x.numel() * x.element_size()

    def differs(self, a, b):
        bits = self._bits[a.element_size()]
        return self.torch.ne(a.detach().view(bits), b.detach().view(bits)).any()

    def read_flags(self, flags: List[Any]) -> List[bool]:
        if not flags:
            return []
        return [bool(f) for f in self.torch.stack(flags).cpu().tolist()]

    def synchronize(self) -> None:
        if self.device.type == "cuda":
            self.torch.cuda.synchronize(self.device)


def device_backend(device: Any):
    """The backend of a check's ``device=``: a TorchDevice for a name or a torch.device, or an
    object that already has the methods of the module's docstring."""
    methods = ("upload", "copy", "download", "owns", "element_type", "shape", "nbytes",
               "differs", "read_flags", "synchronize")
    if isinstance(device, str) or type(device).__name__ == "device":
        return TorchDevice(device)
    missing = [m for m in methods if not callable(getattr(device, m, None))]
    if missing:
        raise TypeError(f"device={device!r}: a torch device name ('cuda', 'cuda:1', 'cpu'), a "
                        f"torch.device, or an object with {', '.join(methods)} (missing "
                        f"{', '.join(missing)})")
    return device
