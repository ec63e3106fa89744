"""Row reductions declared in Python (osvs.check_logsumexp, check_layer_norm, check_rms_norm):
NumPy kernels that compute in float64 pass every row-wise law that applies within the bounds osvs
derives for its own reference kernels (kernels/include/osvs/kernels/row_reductions.h); a
one-pass float32 variance fails accuracy at a large mean and is shrunk to a short row; a
logsumexp without the max overflows; an rms_norm row holding an infinity is held to the declared
convention (inf_row); declarations osvs cannot use are named."""

import numpy as np
import pytest

import osvs

#: The reference kernels' contracts (ulps, cond_rel, cond_rel_per_element), as derived in
#: kernels/include/osvs/kernels/row_reductions.h.
LSE_BOUND = (1.5 + 2.0 ** -14, 2.0 ** -50, 2.0 ** -50)
LAYER_NORM_BOUND = (1.5 + 2.0 ** -14, 2.0 ** -49, 2.0 ** -51)
RMS_NORM_BOUND = (1.5 + 2.0 ** -14, 2.0 ** -50, 2.0 ** -53)
MEAN_VAR_BOUND = (1.5 + 2.0 ** -14, 2.0 ** -50, 2.0 ** -51)


def logsumexp_f64(x):
    x = x.astype(np.float64)
    m = x.max(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        safe = np.where(np.isfinite(m), m, 0.0)
        lse = (safe + np.log(np.exp(x - safe).sum(axis=1, keepdims=True)))[:, 0]
    # The conventions: NaN anywhere NaN, else +inf, a row of -inf -inf.
    lse = np.where(np.isnan(x).any(axis=1), np.nan, lse)
    lse = np.where(~np.isnan(x).any(axis=1) & (m[:, 0] == np.inf), np.inf, lse)
    return lse.astype(np.float32)


def layer_norm_f64(x, w, b, eps):
    x = x.astype(np.float64)
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return ((x - mu) / np.sqrt(var + eps) * w + b).astype(np.float32)


def layer_norm_one_pass_f32(x, w, b, eps):
    n = np.float32(x.shape[1])
    mu = x.sum(axis=1, keepdims=True, dtype=np.float32) / n
    var = (x * x).sum(axis=1, keepdims=True, dtype=np.float32) / n - mu * mu
    with np.errstate(invalid="ignore", divide="ignore"):
        return ((x - mu) / np.sqrt(var + np.float32(eps)) * w + b).astype(np.float32)


def mean_var_f64(x):
    x = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        return x.mean(axis=1).astype(np.float32), x.var(axis=1).astype(np.float32)


def rms_norm_f64(x, w, eps, ieee_infinities=False):
    x = x.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        ms = (x * x).mean(axis=1, keepdims=True)
        if not ieee_infinities:
            ms = np.where(np.isinf(ms), np.nan, ms)  # no finite mean square: NaN everywhere
        return (x / np.sqrt(ms + eps) * w).astype(np.float32)


def rms_norm_ieee_f64(x, w, eps):
    """The formula's IEEE value on an infinite row: x_i / sqrt(inf) w_i, +-0 at a finite x_i,
    NaN at the infinite one (inf / inf)."""
    return rms_norm_f64(x, w, eps, ieee_infinities=True)


APPLIES = {"logsumexp": {"scale_invariance"}, "layer_norm": {"empty_rows"},
           "rms_norm": {"empty_rows", "shift_invariance"},
           "mean_var": {"empty_rows", "scale_invariance"}}


@pytest.mark.parametrize("op,fn,bound", [("logsumexp", logsumexp_f64, LSE_BOUND),
                                         ("layer_norm", layer_norm_f64, LAYER_NORM_BOUND),
                                         ("rms_norm", rms_norm_f64, RMS_NORM_BOUND),
                                         ("mean_var", mean_var_f64, MEAN_VAR_BOUND)])
def test_a_float64_numpy_row_reduction_passes_every_law(op, fn, bound):
    result = osvs.check_row_reduction(fn, op=op, name=f"py.{op}_f64", accuracy=bound)
    assert [(r.law, r.status) for r in result.laws] == [
        (law, "skipped" if law in APPLIES[op] else "passed") for law in osvs.rowwise_laws()]
    assert all(r.judged > 0 for r in result.laws if r.status == "passed")


def test_a_one_pass_variance_fails_accuracy_at_a_large_mean():
    result = osvs.check_layer_norm(layer_norm_one_pass_f32, name="py.layer_norm_one_pass",
                                   accuracy=(2.0, 0.0, 2.0 ** -23), laws=["accuracy"],
                                   raise_on_failure=False)
    (accuracy,) = result.laws
    assert accuracy.status == "failed", str(result)
    x = accuracy.case["inputs"][0]
    assert len(x) == 1 and len(x[0]) <= 4, accuracy.case["summary"]


def test_a_logsumexp_without_the_max_overflows():
    def naive(x):
        with np.errstate(over="ignore"):
            return np.log(np.exp(x).sum(axis=1)).astype(np.float32)  # float32: exp(89) = inf

    result = osvs.check_logsumexp(naive, name="py.lse_naive", accuracy=LSE_BOUND,
                                  laws=["accuracy"], raise_on_failure=False)
    (accuracy,) = result.laws
    # Two findings: float32's rounding beyond the binary64 reference's bound, and the overflow
    # (or underflow: exp(-287) is 0 in float32) to an infinite lse.
    assert accuracy.status == "failed"
    assert "another finding (infinite instead of finite)" in str(result), str(result)


def test_rms_norm_infinite_rows_are_held_to_the_declared_convention():
    ieee = osvs.check_rms_norm(rms_norm_ieee_f64, name="py.rms_norm_ieee", inf_row="ieee",
                               accuracy=RMS_NORM_BOUND, laws=["special_values"])
    assert ieee.laws[0].status == "passed"
    for fn, declared in ((rms_norm_ieee_f64, "nan"), (rms_norm_f64, "ieee")):
        other = osvs.check_rms_norm(fn, name=f"py.rms_norm_declared_{declared}",
                                    inf_row=declared, accuracy=RMS_NORM_BOUND,
                                    laws=["special_values"], raise_on_failure=False)
        assert other.laws[0].status == "failed", declared
    with pytest.raises(ValueError, match="inf_row"):
        osvs.check_rms_norm(rms_norm_f64, name="py.bad", inf_row="zero")


def test_declarations_osvs_cannot_use_are_named():
    with pytest.raises(ValueError, match="op 'softmax'"):
        osvs.check_row_reduction(logsumexp_f64, op="softmax", name="py.bad")
    with pytest.raises(ValueError, match="not a row-wise law"):
        osvs.check_layer_norm(layer_norm_f64, name="py.typo", skip={"scale_invarience": "typo"})


def test_var_mean_unbiased_against_a_biased_kernel():
    """A kernel that ignores the correction (divides by n) is caught on the unbiased op."""
    result = osvs.check_mean_var(mean_var_f64, name="py.mean_var_biased", unbiased=True,
                                 accuracy=MEAN_VAR_BOUND, laws=["accuracy"],
                                 raise_on_failure=False)
    (accuracy,) = result.laws
    assert accuracy.status == "failed" and "var" in accuracy.reason, str(result)
