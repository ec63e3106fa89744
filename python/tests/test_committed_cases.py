"""The shrunk cases committed under reports/python/numpy-cpu/ replay: each still fails on the
broken kernel that produced it and holds on the correct kernel of its operation."""

from pathlib import Path

import pytest

import numpy_kernels as k
import osvs

ROOT = Path(__file__).resolve().parents[2] / "reports" / "python" / "numpy-cpu" / "regressions"
FILES = sorted(ROOT.glob("*/*.json"))
DECLARATIONS = {  # as python/reports/numpy_cpu.py declared them
    "numpy.softmax_without_max": (k.softmax_without_max, k.softmax, dict(accuracy=4)),
    "numpy.softmax_wrong_axis": (k.softmax_wrong_axis, k.softmax, dict(accuracy=1)),
    "numpy.softmax_tail_dropped": (k.softmax_tail_dropped, k.softmax, dict(accuracy=1)),
    "numpy.log_softmax_via_log_of_softmax": (k.log_softmax_via_log_of_softmax, k.log_softmax,
                                             dict(accuracy=4, log=True)),
}


def test_there_are_committed_cases():
    assert len(FILES) >= len(DECLARATIONS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_committed_case_replays(path):
    broken, correct, declaration = DECLARATIONS[path.parent.name]
    assert osvs.replay(path, correct, **declaration).status == "as_expected"
    assert osvs.replay(path, broken, raise_on_failure=False, **declaration).status == "mismatch"
