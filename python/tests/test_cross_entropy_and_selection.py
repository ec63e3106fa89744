"""cross_entropy, argmax and topk declared in Python (osvs.check_cross_entropy, check_argmax,
check_topk): NumPy kernels that compute in float64 (cross-entropy, per row and its batch mean
and sum) or compare exactly (argmax, topk) pass every row-wise law that applies; a cross-entropy
that never compares the target with ignore_index fails empty_rows, a mean over every row (the
ignored ones included) fails accuracy, a mean of none that gives 0 fails empty_rows declared
"nan" and passes declared "zero", an argmax that keeps the last of a tie fails accuracy declared
"lowest" and passes declared "any", an unsorted topk passes declared unsorted; index arrays come
as int64 (or int32 where declared) and must go back as such."""

import numpy as np
import pytest

import osvs

#: osvs's reference cross-entropy's contract (kernels/include/osvs/kernels/row_reductions.h).
CE_BOUND = (1.5 + 2.0 ** -14, 2.0 ** -50, 2.0 ** -50)


def cross_entropy_rows_f64(x, target, ignore_index, label_smoothing, honour_ignore=True):
    """sum_j w_j (lse - x_j) of each row in float64, every special row as IEEE float64 gives
    it (0 for an ignored row)."""
    x = x.astype(np.float64)
    rows, n = x.shape
    loss = np.zeros(rows)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for i in range(rows):
            t = int(target[i])
            if honour_ignore and t == ignore_index:
                continue
            t = min(max(t, 0), n - 1)
            m = np.max(x[i]) if not np.isnan(x[i]).any() else np.nan
            log_d = 0.0 if not np.isfinite(m) else np.log(np.exp(x[i] - m).sum())
            terms = (m - x[i]) + log_d  # lse - x_j
            eps = float(label_smoothing)
            loss[i] = ((1 - eps) * terms[t] if eps < 1 else 0.0) + (
                eps / n * terms.sum() if eps > 0 else 0.0)
    return loss


def cross_entropy_f64(x, target, ignore_index, label_smoothing, honour_ignore=True):
    return cross_entropy_rows_f64(x, target, ignore_index, label_smoothing,
                                  honour_ignore).astype(np.float32)


def cross_entropy_batch_f64(x, target, ignore_index, label_smoothing, reduction="mean",
                            over_every_row=False, none_is_zero=False):
    """torch's reduction='mean' or 'sum' of the float64 losses: the sum of the counted rows'
    (target not ignore_index) losses, over their count for the mean (0 / 0 = NaN where none is
    counted; ``over_every_row`` divides by every row instead, ``none_is_zero`` gives 0 there);
    one float32 value (a NumPy scalar), x of shape (0, n) for the empty batch."""
    loss = cross_entropy_rows_f64(x, target, ignore_index, label_smoothing)
    if reduction == "sum":
        return np.float32(loss.sum())
    counted = len(target) if over_every_row else int(np.sum(np.asarray(target) != ignore_index))
    if counted == 0 and none_is_zero:
        return np.float32(0)
    with np.errstate(invalid="ignore"):
        return np.float32(loss.sum() / np.float64(counted))


def assert_every_law_but_scale_invariance_passed(result):
    """Every row-wise law passed on judged cases, in the laws' order; scale_invariance skipped."""
    assert [(r.law, r.status) for r in result.laws] == [
        (law, "skipped" if law == "scale_invariance" else "passed") for law in osvs.rowwise_laws()]
    assert all(r.judged > 0 for r in result.laws if r.status == "passed")


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_a_float64_batch_cross_entropy_passes_every_law(reduction):
    def batch(x, target, ignore_index, label_smoothing):
        return cross_entropy_batch_f64(x, target, ignore_index, label_smoothing, reduction)

    # numpy's pairwise sum over the rows: within the contract in any order, not the same bits
    result = osvs.check_cross_entropy(batch, name=f"py.cross_entropy_{reduction}_f64",
                                      reduction=reduction, accuracy=CE_BOUND,
                                      batch_invariant=False)
    assert_every_law_but_scale_invariance_passed(result)


def test_a_mean_over_every_row_fails_accuracy():
    def over_every_row(x, target, ignore_index, label_smoothing):
        return cross_entropy_batch_f64(x, target, ignore_index, label_smoothing,
                                       over_every_row=True)

    result = osvs.check_cross_entropy(over_every_row, name="py.ce_mean_over_every_row",
                                      reduction="mean", accuracy=CE_BOUND, laws=["accuracy"],
                                      batch_invariant=False, raise_on_failure=False)
    assert result.laws[0].status == "failed"
    assert ignore_index_in(result.laws[0].case)  # an ignored row counted


def ignore_index_in(case):
    return any(row[0] == case["ignore_index"] for row in case["inputs"][1])


def test_the_mean_of_none_is_the_declared_convention():
    def zero_for_none(x, target, ignore_index, label_smoothing):
        return cross_entropy_batch_f64(x, target, ignore_index, label_smoothing,
                                       none_is_zero=True)

    declared_nan = osvs.check_cross_entropy(zero_for_none, name="py.ce_mean_zero_for_none",
                                            reduction="mean", accuracy=CE_BOUND,
                                            laws=["empty_rows"], raise_on_failure=False)
    assert declared_nan.laws[0].status == "failed"
    assert "exact nan" in declared_nan.laws[0].reason
    declared_zero = osvs.check_cross_entropy(zero_for_none, name="py.ce_mean_zero_declared",
                                             reduction="mean", accuracy=CE_BOUND,
                                             laws=["empty_rows"], mean_of_none="zero")
    assert declared_zero.laws[0].status == "passed"
    with pytest.raises(ValueError, match="reduction"):
        osvs.check_cross_entropy(zero_for_none, name="py.bad", reduction="avg")
    with pytest.raises(ValueError, match="mean_of_none"):
        osvs.check_cross_entropy(zero_for_none, name="py.bad", reduction="mean",
                                 mean_of_none="0")


def argmax_first(x):
    return np.argmax(x, axis=1).astype(np.int64)  # NaN first, ties to the first: torch's rule


def argmax_last(x):
    n = x.shape[1]
    return (n - 1 - np.argmax(x[:, ::-1], axis=1)).astype(np.int64)


def topk_sorted(x, k):
    """The k largest, NaN first, ties to the lowest index (a stable sort on three keys)."""
    idx = np.empty((x.shape[0], k), dtype=np.int64)
    for i, row in enumerate(x):
        nan = np.isnan(row)
        order = np.lexsort((np.arange(len(row)), np.where(nan, 0.0, -row.astype(np.float64)),
                            ~nan))
        idx[i] = order[:k]
    return np.take_along_axis(x, idx, axis=1), idx


def test_a_float64_cross_entropy_passes_every_law():
    result = osvs.check_cross_entropy(cross_entropy_f64, name="py.cross_entropy_f64",
                                      accuracy=CE_BOUND)
    assert_every_law_but_scale_invariance_passed(result)


def test_an_ignore_index_never_compared_fails_empty_rows():
    def ignores_nothing(x, target, ignore_index, label_smoothing):
        return cross_entropy_f64(x, target, ignore_index, label_smoothing, honour_ignore=False)

    result = osvs.check_cross_entropy(ignores_nothing, name="py.ce_no_ignore",
                                      accuracy=CE_BOUND, laws=["empty_rows"],
                                      raise_on_failure=False)
    law = result.laws[0]
    assert law.status == "failed"
    assert list(law.case["inputs"][1][0]) == [law.case["ignore_index"]]  # the ignored row kept


@pytest.mark.parametrize("index_dtype", ["int64", "int32"])
def test_argmax_passes_with_the_lowest_index_of_a_tie(index_dtype):
    fn = argmax_first if index_dtype == "int64" else (lambda x: argmax_first(x).astype(np.int32))
    result = osvs.check_argmax(fn, name=f"py.argmax_{index_dtype}", index_dtype=index_dtype)
    skipped = {"empty_rows", "shift_invariance"}
    assert [(r.law, r.status) for r in result.laws] == [
        (law, "skipped" if law in skipped else "passed") for law in osvs.rowwise_laws()]


def test_the_last_of_a_tie_fails_declared_lowest_and_passes_declared_any():
    lowest = osvs.check_argmax(argmax_last, name="py.argmax_last", laws=["accuracy"],
                               raise_on_failure=False)
    assert lowest.laws[0].status == "failed"
    assert "tie" in lowest.laws[0].reason
    anyone = osvs.check_argmax(argmax_last, name="py.argmax_last_any", laws=["accuracy"],
                               ties="any")
    assert anyone.laws[0].status == "passed"


def test_topk_sorted_and_unsorted():
    result = osvs.check_topk(topk_sorted, name="py.topk")
    assert all(r.status in ("passed", "skipped") for r in result.laws)

    def reversed_topk(x, k):
        values, indices = topk_sorted(x, k)
        return values[:, ::-1].copy(), indices[:, ::-1].copy()

    unsorted = osvs.check_topk(reversed_topk, name="py.topk_reversed", sorted=False,
                               laws=["accuracy"])
    assert unsorted.laws[0].status == "passed"
    declared_sorted = osvs.check_topk(reversed_topk, name="py.topk_reversed_sorted",
                                      laws=["accuracy"], raise_on_failure=False)
    assert declared_sorted.laws[0].status == "failed"


def test_an_index_returned_as_float_is_refused():
    result = osvs.check_argmax(lambda x: argmax_first(x).astype(np.float32), name="py.argmax_f",
                               laws=["accuracy"], raise_on_failure=False)
    assert result.laws[0].status == "failed"  # the kernel broke the calling convention
    assert "dtype float32, expected int64" in result.laws[0].reason


def test_declarations_osvs_cannot_use_are_named():
    with pytest.raises(ValueError, match="index_dtype"):
        osvs.check_argmax(argmax_first, name="py.bad", index_dtype="int8")
    with pytest.raises(ValueError, match="ties"):
        osvs.check_argmax(argmax_first, name="py.bad", ties="first")
    with pytest.raises(ValueError, match="dtype"):
        osvs.check_argmax(argmax_first, name="py.bad", dtype="int64")
