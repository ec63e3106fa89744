"""What one law's run of an attention kernel copied between the host and the device, and the time
it spent doing so (``LawResult.transfers``).

Without ``device=`` the copies are the kernel's own: each ``to_input`` call is counted as an
upload (its array's bytes, its wall time) and each output that is not a NumPy array as a download
(the bytes read back, the time of the read, which waits for the device's queued work unless the
kernel synchronises before it returns). With ``device=`` osvs makes them (_device_session.py):
its uploads and downloads are timed after a synchronisation of the device, so that the time is
the copy's own.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class Transfers:
    mode: str  # "host": the kernel's to_input and outputs; "device": osvs's device path
    calls: int = 0  # launches of the kernel
    uploads: int = 0  # host -> device copies
    upload_bytes: int = 0
    upload_seconds: float = 0.0
    # device -> host copies (on the device path the time includes the output's kept copy on
    # the device, made just before)
    downloads: int = 0
    download_bytes: int = 0
    download_seconds: float = 0.0
    # device path: inputs handed from the device cache (no upload), and their bytes
    inputs_reused: int = 0
    reused_bytes: int = 0
    # device path: outputs whose bits the device found equal to an earlier output's, read from
    # that output's host copy (no download), and their bytes
    downloads_avoided: int = 0
    avoided_bytes: int = 0
    # device path: copies on the device (a fresh copy of each input a call, the kept copy of
    # each output downloaded), the bitwise comparisons made there, and the reads of their
    # verdicts (one a call, a few bytes; its time waits for the kernel's queued work)
    device_copies: int = 0
    device_copy_bytes: int = 0
    device_compares: int = 0
    flag_reads: int = 0
    check_seconds: float = 0.0
    # device path: time on the host finding an input among those on the device (a fingerprint
    # of sampled bytes, then a comparison of every byte with the candidate's host copy)
    lookup_seconds: float = 0.0

    @property
    def copies(self) -> int:
        """Host <-> device copies, both ways."""
        return self.uploads + self.downloads

    @property
    def copy_bytes(self) -> int:
        return self.upload_bytes + self.download_bytes

    @property
    def copy_seconds(self) -> float:
        return self.upload_seconds + self.download_seconds

    def as_dict(self) -> dict:
        return dataclasses.asdict(self) | {"copies": self.copies, "copy_bytes": self.copy_bytes,
                                           "copy_seconds": self.copy_seconds}
