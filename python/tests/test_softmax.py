"""Row laws on NumPy kernels: the correct ones pass every law; each broken one fails with a
shrunk case that is small, written as a regression file that replays."""

import os

import numpy as np
import pytest

import osvs
from numpy_kernels import (log_softmax, log_softmax_via_log_of_softmax, softmax,
                           softmax_bfloat16, softmax_float16, softmax_tail_dropped,
                           softmax_wrong_axis, softmax_without_max)

# The whole adapter of a kernel: its name, what it computes, its contract.
CORRECT = dict(accuracy=1, exact_shift_invariant=True)


def test_correct_softmax_passes_every_law():
    result = osvs.check_softmax(softmax, name="numpy.softmax", **CORRECT)
    assert result.ok
    ran = [r for r in result.laws if r.status == "passed"]
    assert {r.law for r in ran} >= {"accuracy", "sum_to_one", "determinism", "batch_invariance",
                                    "strided", "permutation", "shift_invariance"}
    assert all(r.judged > 0 for r in ran)
    assert result["large_batch"].status == "skipped"  # opt-in only


def test_correct_log_softmax_passes_every_law():
    result = osvs.check_log_softmax(log_softmax, name="numpy.log_softmax", accuracy=1)
    assert result.ok, str(result)


def shrunk(kernel, law, **declaration):
    """Runs `law` on a broken kernel: it must raise LawViolation with the law failed."""
    with pytest.raises(osvs.LawViolation) as e:
        osvs.check_softmax(kernel, name=f"numpy.{kernel.__name__}", laws=[law], **declaration)
    r = e.value.result[law]
    assert r.status == "failed"
    assert os.path.isfile(r.regression)
    assert law in str(e.value) and r.regression in str(e.value)  # what pytest prints
    return r


@pytest.mark.parametrize("kernel, law, max_rows, max_cols, declaration", [
    (softmax_without_max, "accuracy", 1, 1, {"accuracy": 4}),
    (softmax_wrong_axis, "batch_invariance", 2, 1, {"accuracy": 1}),
    (softmax_tail_dropped, "accuracy", 1, 3, {"accuracy": 1}),
    (log_softmax_via_log_of_softmax, "accuracy", 1, 8, {"accuracy": 4, "log": True}),
])
def test_broken_kernel_fails_with_a_small_case(kernel, law, max_rows, max_cols, declaration):
    r = shrunk(kernel, law, **declaration)
    rows = r.case["rows"]
    assert 1 <= len(rows) <= max_rows and 1 <= len(rows[0]) <= max_cols, r
    assert all(row.dtype == np.float32 for row in rows)
    # The file replays: the broken kernel fails again, the fixed one shows the law holding.
    with pytest.raises(osvs.LawViolation):
        osvs.replay(r.regression, kernel, **declaration)
    fixed = log_softmax if declaration.get("log") else softmax
    assert osvs.replay(r.regression, fixed, **declaration).status == "as_expected"


def test_a_declared_layout_is_judged_at_its_edges():
    """A kernel wrong only on rows past 2^17 (a long-row path that drops its last output): the
    random cases never reach it; declared, the split layout's first length shows it."""
    def long_rows_lose_their_tail(x):
        y = softmax(x)
        if x.shape[1] > 131072:
            y[:, -1] = 0
        return y
    undeclared = osvs.check_softmax(long_rows_lose_their_tail, name="numpy.long_tail.undeclared",
                                    laws=["accuracy"], accuracy=1)
    assert undeclared.ok
    with pytest.raises(osvs.LawViolation) as e:
        osvs.check_softmax(long_rows_lose_their_tail, name="numpy.long_tail", laws=["accuracy"],
                           accuracy=1, layouts=[("one pass", 1), ("split row", 131073, 16384)],
                           shrink_seconds=2)
    assert len(e.value.result["accuracy"].case["rows"][0]) == 131073


def test_flushed_subnormal_outputs_are_a_declared_convention():
    def flushing(x):
        y = softmax(x)
        y[np.abs(y) < np.finfo(np.float32).tiny] = 0
        return y
    with pytest.raises(osvs.LawViolation):
        osvs.check_softmax(flushing, name="numpy.ftz.undeclared", laws=["accuracy"], accuracy=1,
                           shrink_seconds=2)
    assert osvs.check_softmax(flushing, name="numpy.ftz", laws=["accuracy"], accuracy=1,
                              flush_subnormal_outputs=True).ok


def test_a_derived_bound_takes_the_declared_exp():
    fast_math = osvs.derived("two_pass", "hardened", 256, exp="cuda_fast_expf")
    assert osvs.check_softmax(softmax, name="numpy.softmax.derived_fast_exp", laws=["accuracy"],
                              accuracy=fast_math).ok
    with pytest.raises(ValueError, match="no exp 'expf_guess'"):
        osvs.check_softmax(softmax, name="numpy.softmax.bad_exp", laws=["accuracy"],
                           accuracy=osvs.derived(exp="expf_guess"))


def test_known_defect_is_required_and_reported():
    result = osvs.check_softmax(softmax_without_max, name="numpy.softmax_without_max.declared",
                                laws=["accuracy"], accuracy=4,
                                known_defect={"accuracy": "exp overflows without the max"})
    assert result.ok and result["accuracy"].status == "known_defect"
    assert osvs.replay(result["accuracy"].regression, softmax_without_max,
                       accuracy=4).status == "as_expected"
    with pytest.raises(osvs.LawViolation, match="defect_missing"):
        osvs.check_softmax(softmax, name="numpy.softmax.false_defect", laws=["accuracy"],
                           accuracy=1, known_defect={"accuracy": "declared by mistake"})


@pytest.mark.parametrize("kernel, dtype", [(softmax_float16, "float16"),
                                           (softmax_bfloat16, "bfloat16")])
def test_16_bit_kernels_pass_within_one_ulp_of_their_type(kernel, dtype):
    result = osvs.check_softmax(kernel, name=f"numpy.softmax.{dtype}", dtype=dtype, accuracy=1,
                                laws=["accuracy", "sum_to_one", "strided"], max_cases=50)
    assert result.ok and all(r.judged > 0 for r in result.laws)


def test_a_16_bit_kernel_judged_in_its_type():
    """float32 results returned for a float16 kernel are refused, not rounded silently."""
    with pytest.raises(osvs.LawViolation, match="expected float16"):
        osvs.check_softmax(softmax, name="numpy.softmax.not16", dtype="float16", accuracy=1,
                           laws=["accuracy"], max_cases=5)
