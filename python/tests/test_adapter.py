"""The border between the core and a Python kernel: what a kernel may return (NumPy or any
DLPack producer, float32 only), what it must not do (modify its input, raise, return the wrong
shape), the settings' precedence, and the saved cases replayed first."""

import numpy as np
import pytest

import osvs
from osvs import _settings
from law_violations import failed_law
from numpy_kernels import softmax

QUICK = dict(laws=["accuracy", "strided"], max_cases=30)


class DLPackOnly:
    """A producer known only by the DLPack protocol (as a torch tensor or a CuPy array is)."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def test_any_dlpack_producer_is_read_back():
    result = osvs.check_softmax(lambda x: DLPackOnly(softmax(x)), name="dlpack.softmax",
                                accuracy=1, **QUICK)
    assert result.ok and all(r.judged > 0 for r in result.laws)


@pytest.mark.parametrize("fn, message", [
    (lambda x: softmax(x).astype(np.float64), "dtype float64, expected float32"),
    (lambda x: softmax(x)[:, :-1] if x.shape[1] > 1 else softmax(x)[:0], "shape"),
    (lambda x: np.multiply(x, 2, out=x), "modified its input"),
    (lambda x: 1 / 0, "ZeroDivisionError"),
])
def test_a_kernel_breaking_the_calling_convention_fails_with_the_reason(fn, message):
    with pytest.raises(osvs.LawViolation) as e:
        osvs.check_softmax(fn, name="broken.convention", accuracy=1, **QUICK)
    assert message in e.value.result.failures[0].reason


def test_padded_rows_reach_the_kernel_as_strided_views():
    shapes = []

    def spy(x):
        shapes.append((x.shape, x.strides))
        return softmax(x)

    osvs.check_softmax(spy, name="spy.softmax", accuracy=1, laws=["strided"], max_cases=20)
    assert any(strides[0] > shape[1] * 4 for shape, strides in shapes)


def test_settings_precedence(monkeypatch):
    assert _settings._rc_params("seed=7 max_success=9 verbose_progress=1") == {
        "seed": 7, "max_cases": 9}
    monkeypatch.setenv("RC_PARAMS", "seed=42")
    assert _settings.from_environment().seed == 42
    assert _settings.resolve(seed=5).seed == 5


def test_same_seed_same_cases_other_seed_other_cases():
    def lengths(seed):
        seen = []
        osvs.check_softmax(lambda x: seen.append(x.shape) or softmax(x), name="seeded.softmax",
                           accuracy=1, laws=["accuracy"], max_cases=20, seed=seed)
        return seen

    assert lengths(1) == lengths(1)
    assert lengths(1) != lengths(2)


def test_saved_cases_are_replayed_first(tmp_path):
    bad = lambda x: np.zeros(x.shape, np.float32)  # noqa: E731
    failed = failed_law(osvs.check_softmax, bad, "accuracy", name="replayed.softmax", accuracy=1,
                        regression_dir=str(tmp_path))
    # the first failure's file and one for each further class of failure (max_findings)
    saved = [failed.regression] + [other["regression"] for other in failed.other_findings]
    result = osvs.check_softmax(softmax, name="replayed.softmax", accuracy=1, laws=["accuracy"],
                                replay_dir=tmp_path)
    assert sorted(r.path for r in result.replayed) == sorted(saved)
    assert all(r.status == "as_expected" for r in result.replayed)


def test_without_a_contract_accuracy_is_measured_not_judged():
    result = osvs.check_softmax(softmax, name="uncontracted.softmax", laws=["accuracy"],
                                max_cases=20)
    assert result.ok and result["accuracy"].status == "no_contract"
    assert "worst observed" in result["accuracy"].reason


def test_ctrl_c_in_a_kernel_stops_the_check():
    calls = []

    def interrupted(x):
        calls.append(1)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        osvs.check_softmax(interrupted, name="interrupted.softmax", accuracy=1)
    assert len(calls) == 1  # no law ran after it, no shrink step called Python again


def test_an_error_outside_the_kernel_is_reported_not_swallowed():
    def contract(n, range_):
        """a contract that cannot be evaluated"""
        raise ValueError("no contract here")

    r = failed_law(osvs.check_softmax, softmax, "accuracy", name="erroring.softmax",
                   accuracy=contract, max_cases=10)
    assert r.status == "error" and "no contract here" in r.reason and r.case is None
