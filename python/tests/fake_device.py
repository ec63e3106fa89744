"""A device made of NumPy arrays, with the methods of osvs's device backend
(python/osvs/_torch_device.py): what the device path's tests run on where torch is absent. An
array on it is an OnFake, which no NumPy function takes by mistake: a kernel unwraps it
(``.array``) and wraps what it returns (``fake.wrap``), as a torch kernel works on tensors."""

import numpy as np


class OnFake:
    """An array "on the device"."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array


_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_NAMES = {np.dtype(np.float32): "float32", np.dtype(np.float16): "float16",
          np.dtype(np.uint16): "bfloat16", np.dtype(np.int32): "int32",
          np.dtype(np.int64): "int64"}


class FakeDevice:
    name = "fake"

    def upload(self, a):
        return OnFake(np.array(a, copy=True))

    def copy(self, x):
        return OnFake(np.array(x.array, copy=True))

    def download(self, x):
        return np.array(x.array, copy=True)

    def owns(self, x):
        return isinstance(x, OnFake)

    def element_type(self, x):
        return _NAMES.get(x.array.dtype)

    def shape(self, x):
        return tuple(x.array.shape)

    def nbytes(self, x):
        return x.array.nbytes

    def differs(self, a, b):
        bits = _BITS[a.array.dtype.itemsize]
        return not np.array_equal(a.array.view(bits), b.array.view(bits))

    def read_flags(self, flags):
        return [bool(f) for f in flags]

    def synchronize(self):
        pass

    @staticmethod
    def wrap(result):
        """A kernel's host result (an array or a tuple of them) as arrays on the device."""
        if isinstance(result, tuple):
            return tuple(OnFake(np.asarray(r)) for r in result)
        return OnFake(np.asarray(result))
