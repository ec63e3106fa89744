"""Softmax and log-softmax backward declared in Python (osvs.check_softmax_backward): NumPy
kernels that sum in float64 pass every row-wise law within the bound osvs derives for its own
reference; the same in float32 fails accuracy against that bound (shrunk to a row of a few
elements) and passes a float32 contract; a backward without the row term is caught, and its
regression file replays; declarations osvs cannot use are named."""

import numpy as np
import pytest

import osvs


def softmax_backward_f64(y, dy):
    y, dy = y.astype(np.float64), dy.astype(np.float64)
    with np.errstate(invalid="ignore"):  # the special values law's rows: NaN as IEEE gives it
        return (y * (dy - (y * dy).sum(axis=1, keepdims=True))).astype(np.float32)


def log_softmax_backward_f64(z, dy):
    z, dy = z.astype(np.float64), dy.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        return (dy - np.exp(z) * dy.sum(axis=1, keepdims=True)).astype(np.float32)


def softmax_backward_f32(y, dy):
    s = np.zeros((y.shape[0], 1), dtype=np.float32)
    for j in range(y.shape[1]):  # left to right in float32, as a one-thread kernel sums
        s += y[:, j:j + 1] * dy[:, j:j + 1]
    return (y * (dy - s)).astype(np.float32)


@pytest.mark.parametrize("log", [False, True])
def test_a_float64_numpy_backward_passes_every_law(log):
    fn = log_softmax_backward_f64 if log else softmax_backward_f64
    result = osvs.check_softmax_backward(fn, name=f"py.backward_f64.{int(log)}", log=log,
                                         accuracy=osvs.REFERENCE_BACKWARD_BOUND)
    # The invariances under a shift or a scale of x are the row reductions' (skipped here).
    reductions_only = ("shift_invariance", "scale_invariance")
    assert [(r.law, r.status) for r in result.laws] == [
        (law, "skipped" if law in reductions_only else "passed") for law in osvs.rowwise_laws()]
    assert all(r.judged > 0 for r in result.laws if r.law not in reductions_only)
    # The invariances: determinism and strided layouts bit for bit, batch and permutation
    # (not declared bitwise) within the contract.
    asks = {r.law: r.asks for r in result.laws}
    assert asks["determinism"] == "bitwise" and asks["permutation"] == "contract"


def test_a_float32_sum_fails_the_float64_bound_and_passes_a_float32_contract():
    result = osvs.check_softmax_backward(softmax_backward_f32, name="py.backward_f32",
                                         accuracy=osvs.REFERENCE_BACKWARD_BOUND,
                                         laws=["accuracy"], raise_on_failure=False)
    (accuracy,) = result.laws
    assert accuracy.status == "failed", str(result)
    inputs = accuracy.case["inputs"]
    assert len(inputs[0]) == 1 and len(inputs[0][0]) <= 4, accuracy.case["summary"]
    assert "tolerance" in accuracy.reason
    # The report prints the shrunk case's arrays, row by row (y first, then dy).
    assert "input 0, row 0: [" in str(result) and "input 1, row 0: [" in str(result)
    # A contract for a float32 kernel: 2 ulp + (2 + n) 2^-24 cond covers a float32 sum in any
    # order (its error is at most gamma_(n) sum |y_j dy_j| plus the two roundings of dx).
    float32_contract = (2.0, 2.0 * 2.0 ** -24, 1.01 * 2.0 ** -24)
    passed = osvs.check_softmax_backward(softmax_backward_f32, name="py.backward_f32.contract",
                                         accuracy=float32_contract, laws=["accuracy"])
    assert passed.laws[0].status == "passed" and passed.laws[0].judged > 0


def test_a_backward_without_the_row_term_is_caught_and_replays(tmp_path):
    def dropped(y, dy):
        return (y * dy).astype(np.float32)

    result = osvs.check_softmax_backward(dropped, name="py.backward_dropped",
                                         accuracy=osvs.REFERENCE_BACKWARD_BOUND,
                                         laws=["accuracy"], raise_on_failure=False,
                                         regression_dir=str(tmp_path))
    (accuracy,) = result.laws
    assert accuracy.status == "failed"
    record = osvs.read_regression(accuracy.regression)
    assert record["kind"] == "rowwise" and record["law"] == "accuracy"
    assert len(record["case"]["inputs"][0][0]) == 1, record["case"]["summary"]
    # The file expects the law to hold once the kernel is fixed: it does on the float64 kernel,
    # and fails again on the broken one.
    fixed = osvs.replay(accuracy.regression, softmax_backward_f64,
                        accuracy=osvs.REFERENCE_BACKWARD_BOUND, raise_on_failure=False)
    assert fixed.status == "as_expected", fixed.problem
    again = osvs.replay(accuracy.regression, dropped, accuracy=osvs.REFERENCE_BACKWARD_BOUND,
                        raise_on_failure=False)
    assert again.status == "mismatch" and "fails again" in again.problem


def test_masked_rows_and_nan_propagation_are_judged():
    def masked_nan(y, dy):  # renormalises y by its mass: 0 / 0 on a fully masked row
        y, dy = y.astype(np.float64), dy.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            s = (y * dy).sum(axis=1, keepdims=True) / y.sum(axis=1, keepdims=True)
            return (y * (dy - s)).astype(np.float32)

    result = osvs.check_softmax_backward(masked_nan, name="py.backward_masked_nan",
                                         laws=["empty_rows"], raise_on_failure=False)
    assert result.laws[0].status == "failed"
    assert "empty row 0" in result.laws[0].reason


def test_declarations_osvs_cannot_use_are_named():
    with pytest.raises(ValueError, match="dtype 'float64'"):
        osvs.SoftmaxBackwardKernel(softmax_backward_f64, name="x", dtype="float64")
    with pytest.raises(ValueError, match="accuracy"):
        osvs.SoftmaxBackwardKernel(softmax_backward_f64, name="x", accuracy=(1, 2))
    with pytest.raises(ValueError, match="not a row-wise law"):
        osvs.check_softmax_backward(softmax_backward_f64, name="py.typo",
                                    skip={"accuarcy": "typo"})
