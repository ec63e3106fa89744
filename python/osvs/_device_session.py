"""How an attention kernel's arrays travel during one law's run: HostSession (the kernel gets the
NumPy arrays, or what its ``to_input`` makes of them, and returns any array osvs reads back) or
DeviceSession (``device=``: osvs hands the kernel arrays on the device and reads its outputs
back, copying each distinct input to the device once and skipping the download of an output
whose bits the device finds equal to an earlier output's).

Neither changes what the laws see: every call of the C++ core receives host arrays of exactly
the bits the kernel returned, so the verdicts, the shrunk cases and the regression files are
those of the host path (python/tests/test_attention_device.py runs both and compares them).

DeviceSession, what is copied when (per law; the caches are emptied when a law begins):
  * an input (q, k, v; a backward's dout and o; an array the kernel asks for through
    ``problem.on_device``) is looked up among the inputs already on the device by a fingerprint
    of sampled bytes, confirmed by comparing every byte with the kept host copy. Found, it is
    not uploaded again; otherwise it is uploaded once and kept (least recently used first out,
    past CACHE_BYTES). Either way the kernel gets a fresh copy made on the device, so that the
    kept one is never the kernel's to write.
  * after the call the device compares, bit for bit, each input the host path checks (q, k, v,
    dout) with its kept copy (a kernel that writes its input fails as on the host path), and each
    output with the output of the same slot (o, lse, dq, ...) of an identical earlier call
    (same inputs, same problem), else of the latest call whose output had its shape and type;
    one read of these flags a call. An output equal to that earlier one is handed to the core as
    the earlier one's host copy; any other is copied on the device (kept for later
    comparisons), then downloaded. An output that is not on the device, or not of the
    declared shape and type, is read as on the host path (the same errors).
"""

from __future__ import annotations

import collections
import dataclasses
import time
import zlib
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._arrays import on_host
from ._transfers import Transfers

#: Bytes of inputs kept on the device (and their host copies) before the least recently used go.
CACHE_BYTES = 1 << 30
#: Identical earlier calls whose outputs are kept for the comparisons.
KEPT_CALLS = 8
#: Bytes of an array sampled for its fingerprint (then every byte is compared).
SAMPLED_BYTES = 4096


def _raw(a: np.ndarray) -> np.ndarray:
    """a's bytes, as a flat uint8 array."""
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8)


def fingerprint(a: np.ndarray) -> tuple:
    """Type, shape and a CRC of SAMPLED_BYTES bytes spread over the array: equal arrays have equal
    fingerprints; unequal ones usually differ, and the full comparison settles the rest."""
    raw = _raw(a)
    step = max(1, raw.size // SAMPLED_BYTES)
    return a.dtype.str, a.shape, zlib.crc32(raw[::step].tobytes() + raw[-64:].tobytes())


def same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """a and b hold the same bits (NaNs and signed zeros included)."""
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(_raw(a), _raw(b))


class HostSession:
    """The host path: the kernel gets the NumPy arrays, through ``to_input`` if given; its
    outputs are read back as any array (on_host). Counts to_input calls as uploads and the reads
    of outputs that are not NumPy arrays as downloads."""

    def __init__(self, to_input: Optional[Callable[[np.ndarray], Any]] = None):
        self.to_input = to_input
        self.transfers = Transfers("host")

    def begin_law(self) -> None:
        self.transfers = Transfers(self.transfers.mode)

    def begin_call(self, problem_key: Callable[[], tuple]) -> None:
        self.transfers.calls += 1

    def input(self, name: str, a: np.ndarray, checked: bool = True) -> Any:
        if self.to_input is None:
            return a
        start = time.perf_counter()
        x = self.to_input(a)
        self.transfers.upload_seconds += time.perf_counter() - start
        self.transfers.uploads += 1
        self.transfers.upload_bytes += a.nbytes
        return x

    #: problem.on_device: there is no device on the host path.
    on_device = None

    def read_host(self, x: Any, what: str, dtype: str) -> np.ndarray:
        if isinstance(x, np.ndarray):
            return on_host(x, what, dtype)
        start = time.perf_counter()
        a = on_host(x, what, dtype)
        self.transfers.download_seconds += time.perf_counter() - start
        self.transfers.downloads += 1
        self.transfers.download_bytes += a.nbytes
        return a

    def outputs(self, items: Sequence["Output"]) -> List[Any]:
        """Each output read to the host and given to its check, in order."""
        return [item.check(self.read_host(item.value, item.what, item.dtype)) for item in items]


@dataclasses.dataclass
class Output:
    """One output of a call: the kernel's array, its name in messages, its slot ("o", "lse",
    "dq", ...), declared shape and element type, and the check that turns the host array into
    what the core reads (raising the host path's errors)."""

    value: Any
    what: str
    slot: str
    shape: tuple
    dtype: str
    check: Callable[[np.ndarray], Any]


@dataclasses.dataclass
class _Input:
    serial: int
    host: np.ndarray  # the bytes it was uploaded from
    array: Any  # on the device, never handed to a kernel
    nbytes: int


@dataclasses.dataclass
class _Handed:
    name: str
    array: Any  # the kernel's copy
    kept: _Input
    checked: bool


@dataclasses.dataclass
class _Kept:
    """An output downloaded: its copy on the device (never handed out) and its host copy."""

    array: Any
    host: np.ndarray
    shape: tuple
    dtype: str
    nbytes: int


class DeviceSession:
    """The device path (the module's docstring) on a backend (_torch_device.py's methods)."""

    def __init__(self, backend: Any, cache_bytes: int = CACHE_BYTES):
        self.backend = backend
        self.cache_bytes = cache_bytes
        self.begin_law()

    def begin_law(self) -> None:
        self.transfers = Transfers("device")
        self._inputs: Dict[tuple, List[_Input]] = {}
        self._lru: "collections.OrderedDict[int, Tuple[tuple, _Input]]" = collections.OrderedDict()
        self._bytes = 0
        self._serial = 0
        self._calls: "collections.OrderedDict[tuple, Dict[str, _Kept]]" = \
            collections.OrderedDict()
        self._latest: Dict[str, _Kept] = {}
        self._handed: List[_Handed] = []
        self._problem_key: tuple = ()

    # -- inputs

    def _kept_input(self, a: np.ndarray) -> _Input:
        """a's kept copy on the device: found, or uploaded now."""
        t = self.transfers
        start = time.perf_counter()
        key = fingerprint(a)
        found = next((e for e in self._inputs.get(key, []) if same_bytes(e.host, a)), None)
        t.lookup_seconds += time.perf_counter() - start
        if found is not None:
            self._lru.move_to_end(found.serial)
            t.inputs_reused += 1
            t.reused_bytes += found.nbytes
            return found
        self.backend.synchronize()
        start = time.perf_counter()
        array = self.backend.upload(a)
        self.backend.synchronize()
        t.upload_seconds += time.perf_counter() - start
        self._serial += 1
        # (a is the core's fresh array of this call, which no kernel gets on this path: kept as is)
        entry = _Input(self._serial, a, array, self.backend.nbytes(array))
        t.uploads += 1
        t.upload_bytes += entry.nbytes
        self._inputs.setdefault(key, []).append(entry)
        self._lru[entry.serial] = (key, entry)
        self._bytes += 2 * entry.nbytes  # (its host copy too)
        while self._bytes > self.cache_bytes and len(self._lru) > 1:
            _, (old_key, old) = self._lru.popitem(last=False)
            self._inputs[old_key].remove(old)
            if not self._inputs[old_key]:
                del self._inputs[old_key]
            self._bytes -= 2 * old.nbytes
        return entry

    def begin_call(self, problem_key: Callable[[], tuple]) -> None:
        """A call begins; ``problem_key()``: its problem's description (what, with the inputs,
        makes two calls identical)."""
        self.transfers.calls += 1
        self._handed = []
        self._problem_key = problem_key()

    def input(self, name: str, a: np.ndarray, checked: bool = True) -> Any:
        """The kernel's copy of input ``name`` on the device; ``checked``: the call fails if the
        kernel writes it (as the host path checks q, k, v and dout)."""
        kept = self._kept_input(a)
        array = self.backend.copy(kept.array)
        self.transfers.device_copies += 1
        self.transfers.device_copy_bytes += kept.nbytes
        self._handed.append(_Handed(name, array, kept, checked))
        return array

    def on_device(self, name: str, a: np.ndarray) -> Any:
        """problem.on_device: a problem array on the device (unchecked, as on the host path)."""
        return self.input(name, a, checked=False)

    # -- outputs

    def read_host(self, x: Any, what: str, dtype: str) -> np.ndarray:
        """x read as the host path reads it (through DLPack; an array of the device without
        DLPack through the device's download)."""
        if isinstance(x, np.ndarray):
            return on_host(x, what, dtype)
        self.backend.synchronize()
        start = time.perf_counter()
        if self.backend.owns(x) and not hasattr(x, "__dlpack__"):
            x = self.backend.download(x)
        a = on_host(x, what, dtype)
        self.transfers.download_seconds += time.perf_counter() - start
        self.transfers.downloads += 1
        self.transfers.download_bytes += a.nbytes
        return a

    def _comparable(self, item: Output) -> bool:
        b = self.backend
        return b.owns(item.value) and b.element_type(item.value) == item.dtype and \
            b.shape(item.value) == tuple(item.shape)

    def _download(self, item: Output) -> _Kept:
        b, t = self.backend, self.transfers
        b.synchronize()
        start = time.perf_counter()
        array = b.copy(item.value)
        host = b.download(array)
        t.download_seconds += time.perf_counter() - start
        kept = _Kept(array, host, tuple(item.shape), item.dtype, b.nbytes(array))
        t.device_copies += 1
        t.device_copy_bytes += kept.nbytes
        t.downloads += 1
        t.download_bytes += kept.nbytes
        return kept

    def outputs(self, items: Sequence[Output]) -> List[Any]:
        """Each output to the host and through its check, in order; then the checked inputs
        (the host path's order: its core checks them after the outputs are read)."""
        b, t = self.backend, self.transfers
        call = (tuple(h.kept.serial for h in self._handed), self._problem_key)
        earlier = self._calls.get(call, {})
        candidates: List[Optional[_Kept]] = []
        flags = []
        for item in items:
            c = earlier.get(item.slot) or self._latest.get(item.slot)
            if c is None or not self._comparable(item) or c.shape != tuple(item.shape) or \
                    c.dtype != item.dtype:
                candidates.append(None)
                continue
            candidates.append(c)
            flags.append(b.differs(item.value, c.array))
        checked = [h for h in self._handed if h.checked]
        flags += [b.differs(h.array, h.kept.array) for h in checked]
        t.device_compares += len(flags)
        start = time.perf_counter()
        differ = iter(b.read_flags(flags))
        t.check_seconds += time.perf_counter() - start
        t.flag_reads += 1
        results, used = [], {}
        for item, c in zip(items, candidates):
            if c is not None and not next(differ):
                t.downloads_avoided += 1
                t.avoided_bytes += c.nbytes
                used[item.slot] = c
                results.append(item.check(c.host))
            elif self._comparable(item):
                kept = self._download(item)
                used[item.slot] = kept
                results.append(item.check(kept.host))
            else:
                results.append(item.check(self.read_host(item.value, item.what, item.dtype)))
        written = [h.name for h, d in zip(checked, differ) if d]
        if written:
            # (the kept copies stay as uploaded: the kernel wrote its own copy)
            raise RuntimeError("the kernel modified its input dout" if "dout" in written else
                               "the kernel modified its input arrays (" + ", ".join(written) +
                               ", on the device)")
        self._latest.update(used)
        self._calls[call] = used
        self._calls.move_to_end(call)
        while len(self._calls) > KEPT_CALLS:
            self._calls.popitem(last=False)
        return results
