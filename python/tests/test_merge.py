"""Merge laws on NumPy merges of attention partials: the correct one passes every law, one that
drops the smaller partial fails with a case of two partials of one row and one component."""

import numpy as np
import pytest

import osvs
from law_violations import failed_law
from numpy_kernels import bfloat16_to_float32, float32_to_bfloat16, merge, merge_dropping_smaller


def test_correct_merge_passes_every_law():
    result = osvs.check_merge(merge, name="numpy.merge")
    assert result.ok
    assert [r.law for r in result.laws] == osvs.merge_laws()
    assert all(r.status == "passed" and r.judged > 0 for r in result.laws
               if r.law != "large_batch")
    assert result["large_batch"].status == "skipped"  # opt-in only


def test_a_merge_of_two_bases_is_told_which():
    bases = set()

    def either_base(o_a, lse_a, o_b, lse_b, base):
        bases.add(base)
        return merge(o_a, lse_a, o_b, lse_b, base)

    result = osvs.check_merge(either_base, name="numpy.merge.bases", lse_bases=("e", "2"),
                              laws=["accuracy", "commutativity"])
    assert result.ok and bases == {"e", "2"}


def test_only_the_declared_head_dims_are_drawn():
    dims = set()

    def multiple_of_16(o_a, lse_a, o_b, lse_b):
        assert o_a.shape[1] % 16 == 0, o_a.shape
        dims.add(o_a.shape[1])
        return merge(o_a, lse_a, o_b, lse_b)

    result = osvs.check_merge(multiple_of_16, name="numpy.merge.head_dim_16", head_dim_multiple=16,
                              laws=["accuracy", "commutativity"])
    assert result.ok, str(result)
    assert len(dims) >= 3, dims  # several of them, each a multiple of 16 (asserted above)
    with pytest.raises(ValueError, match="declares no head_dim"):
        osvs.check_merge(merge, name="numpy.merge.none", head_dims=[300])


def test_merge_dropping_the_smaller_partial_fails_small():
    r = failed_law(osvs.check_merge, merge_dropping_smaller, "accuracy",
                   name="numpy.merge_dropping_smaller")
    parts = r.case["parts"]
    assert len(parts) == 2 and parts[0]["o"].shape == (1, 1), r
    assert osvs.read_regression(r.regression)["kind"] == "merge"
    with pytest.raises(osvs.LawViolation):
        osvs.replay(r.regression, merge_dropping_smaller)
    assert osvs.replay(r.regression, merge).status == "as_expected"


def merge_engine_nan(o_a, lse_a, o_b, lse_b):
    """Correct but for its NaNs, whose bits are 0x7fffffff (a fast-math engine's)."""
    o, lse = merge(o_a, lse_a, o_b, lse_b)
    engine_nan = np.array([0x7FFFFFFF], np.uint32).view(np.float32)[0]
    return np.where(np.isnan(o), engine_nan, o), np.where(np.isnan(lse), engine_nan, lse)


def test_declared_nan_bits_are_not_a_finding():
    r = failed_law(osvs.check_merge, merge_engine_nan, "special_values",
                   name="numpy.merge_engine_nan")
    assert "0x7fffffff" in r.reason
    result = osvs.check_merge(merge_engine_nan, name="numpy.merge_engine_nan",
                              laws=["special_values"], conventions=["any_nan_bits"])
    assert result.ok and result["special_values"].judged > 0


def merge_engine_nan_dropping_overflow(o_a, lse_a, o_b, lse_b):
    """Its NaNs are 0x7fffffff, and a partial whose lse is +inf is dropped as if it were empty."""
    lse_a = np.where(np.isposinf(lse_a), -np.inf, lse_a).astype(np.float32)
    lse_b = np.where(np.isposinf(lse_b), -np.inf, lse_b).astype(np.float32)
    return merge_engine_nan(o_a, lse_a, o_b, lse_b)


def test_every_distinct_failure_is_reported():
    r = failed_law(osvs.check_merge, merge_engine_nan_dropping_overflow, "special_values",
                   name="numpy.merge_overflow")
    kinds = [r.kind] + [other["kind"] for other in r.other_findings]
    assert "lse: a +inf lse, not NaN" in kinds, kinds
    assert "lse: a NaN lse, NaN bits" in kinds, kinds
    assert all(osvs.read_regression(other["regression"])["kind"] == "merge"
               for other in r.other_findings)
    first = failed_law(osvs.check_merge, merge_engine_nan_dropping_overflow, "special_values",
                       name="numpy.merge_overflow", max_findings=1)
    assert first.other_findings == []


def engine_merge(lse_layout):
    """merge() over an engine's shapes: o (tokens, heads, head_dim), lse (tokens, heads) or
    (heads, tokens); every call's shapes and o contiguity recorded in ``fn.seen``."""

    def fn(o_a, lse_a, o_b, lse_b):
        tokens, heads, d = o_a.shape
        fn.seen.append((tokens, heads, lse_a.shape, o_a.flags.c_contiguous))

        def rows(lse):
            return (lse if lse_layout == "tokens_heads" else lse.T).reshape(-1)

        o, lse = merge(o_a.reshape(-1, d), rows(lse_a), o_b.reshape(-1, d), rows(lse_b))
        lse = lse.reshape(tokens, heads)
        return o.reshape(tokens, heads, d), (lse if lse_layout == "tokens_heads" else lse.T)

    fn.seen = []
    return fn


@pytest.mark.parametrize("lse_layout", ["tokens_heads", "heads_tokens"])
def test_engine_shapes_and_strided_o_pass_every_law(lse_layout):
    fn = engine_merge(lse_layout)
    result = osvs.check_merge(fn, name=f"numpy.merge.{lse_layout}", lse_layout=lse_layout,
                              o_strided=True)
    assert result.ok, str(result)
    for tokens, heads, lse_shape, _ in fn.seen:
        assert lse_shape == ((tokens, heads) if lse_layout == "tokens_heads" else (heads, tokens))
    # the laws reached what only these shapes exercise: several heads and tokens, padded o
    assert any(tokens > 1 and heads > 1 for tokens, heads, _, _ in fn.seen)
    assert any(not contiguous for _, _, _, contiguous in fn.seen)


def merge_reading_heads_tokens_as_tokens_heads(o_a, lse_a, o_b, lse_b):
    """Declared [heads, tokens] but reads its lse as if it were [tokens, heads] (no transpose):
    right only when heads or tokens is 1."""
    tokens, heads, d = o_a.shape
    o, lse = merge(o_a.reshape(-1, d), lse_a.reshape(-1), o_b.reshape(-1, d), lse_b.reshape(-1))
    return o.reshape(tokens, heads, d), lse.reshape(heads, tokens)


def test_an_lse_layout_mistake_fails_with_several_heads_and_tokens():
    r = failed_law(osvs.check_merge, merge_reading_heads_tokens_as_tokens_heads, "accuracy",
                   name="numpy.merge.layout_bug", lse_layout="heads_tokens")
    shape = r.case["shape"]
    rows = r.case["parts"][0]["o"].shape[0]
    # the mistake is invisible with one head or one token: the shrunk case keeps both above 1
    assert shape["heads"] > 1 and rows // shape["heads"] > 1, r.case
    fixed = engine_merge("heads_tokens")
    assert osvs.replay(r.regression, fixed, lse_layout="heads_tokens").status == "as_expected"


def merge_bfloat16(o_a, lse_a, o_b, lse_b):
    """merge() on bfloat16 o (uint16 bits): in float64, one rounding to bfloat16 at the end."""
    assert o_a.dtype == np.uint16 and o_b.dtype == np.uint16
    o, lse = merge(bfloat16_to_float32(o_a), lse_a, bfloat16_to_float32(o_b), lse_b)
    return float32_to_bfloat16(o), lse


def test_bfloat16_o_is_given_and_judged_in_its_type():
    result = osvs.check_merge(merge_bfloat16, name="numpy.merge.bf16", o_dtypes=("bfloat16",),
                              laws=["commutativity", "identity", "accuracy"])
    assert result.ok, str(result)
    assert all(r.judged > 0 for r in result.laws)


def test_engine_declarations_are_checked():
    with pytest.raises(ValueError, match="'tokens_heads' or 'heads_tokens'"):
        osvs.check_merge(merge, name="numpy.merge.bad_layout", lse_layout="rows_heads")
    with pytest.raises(ValueError, match="only the engine shapes carry"):
        osvs.check_merge(merge, name="numpy.merge.bad_stride", o_strided=True)
    with pytest.raises(ValueError, match="o_dtypes"):
        osvs.check_merge(merge, name="numpy.merge.bad_type", o_dtypes=("float64",))
