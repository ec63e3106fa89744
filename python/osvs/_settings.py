"""Run settings of a check: seed, number of cases, shrinking budget, where failures are saved.

Precedence, highest first: the keyword argument of the call; the pytest options
(``--osvs-seed`` ...), which set the session's defaults; the environment (``RC_PARAMS="seed=...
max_success=... max_size=..."`` as RapidCheck reads it, ``OSVS_SHRINK_SECONDS``,
``OSVS_REGRESSION_DIR``); the fixed defaults below, so that runs are deterministic.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Callable, Optional

#: The testbed's fixed seed (api/testbed/testbed.cpp): the same cases as the C++ programs.
DEFAULT_SEED = 20261130


@dataclasses.dataclass
class Settings:
    seed: int = DEFAULT_SEED
    max_cases: int = 100  # RapidCheck's max_success
    max_size: int = 100  # RapidCheck's max_size: row lengths and batch sizes grow with it
    shrink_seconds: float = 20.0  # shrinking budget per law
    # distinct classes of failure searched for per law, each shrunk on its own (1: the first)
    max_findings: int = 4
    regression_dir: str = "osvs-regressions"
    progress: Optional[Callable[[str], None]] = print

    def as_core(self) -> dict:
        return dataclasses.asdict(self) | {"progress": self.progress}


def _rc_params(text: str) -> dict:
    """The keys of an RC_PARAMS string that osvs's checks take."""
    keys = {"seed": ("seed", int), "max_success": ("max_cases", int),
            "max_size": ("max_size", int)}
    out = {}
    for item in text.split():
        key, _, value = item.partition("=")
        if key in keys:
            field, kind = keys[key]
            out[field] = kind(value)
    return out


def from_environment() -> Settings:
    s = Settings(**_rc_params(os.environ.get("RC_PARAMS", "")))
    if "OSVS_SHRINK_SECONDS" in os.environ:
        s.shrink_seconds = float(os.environ["OSVS_SHRINK_SECONDS"])
    if os.environ.get("OSVS_FIRST_FAILURE") == "1":
        s.max_findings = 1
    if os.environ.get("OSVS_REGRESSION_DIR"):
        s.regression_dir = os.environ["OSVS_REGRESSION_DIR"]
    return s


_defaults = from_environment()


def defaults() -> Settings:
    """The session's defaults (a copy)."""
    return dataclasses.replace(_defaults)


def set_defaults(**changes) -> None:
    """Changes the session's defaults (the pytest plugin calls this with its options)."""
    global _defaults
    _defaults = dataclasses.replace(_defaults, **changes)


def resolve(**overrides) -> Settings:
    """The defaults with the call's arguments (``progress=None``: no progress lines)."""
    return dataclasses.replace(_defaults, **overrides)
