"""State reductions declared in Python: a (max, argmax) reduction in ten lines passes every law;
the same with its tie rule broken (ties to the larger index) is caught and shrunk to two
elements; the per-element form runs the same laws; declarations osvs cannot use are named."""

import dataclasses
import re

import numpy as np
import pytest

import osvs

FIELDS = {"max": "float32", "index": "int64"}
IDENTITY = (-np.inf, 2**63 - 1)


def max_argmax_combine(larger_index_on_ties=False):
    """NaN the largest value; ties (+0 and -0 included) to the lowest index, or the larger."""
    def combine(a, b):
        (am, ai), (bm, bi) = a, b
        an, bn = np.isnan(am), np.isnan(bm)
        tie = (bi > ai) if larger_index_on_ties else (bi < ai)
        b_wins = np.where(an != bn, bn, np.where(an | (am == bm), tie, bm > am))
        return np.where(b_wins, bm, am), np.where(b_wins, bi, ai)
    return combine


def test_max_argmax_in_ten_lines_passes_every_law():
    def combine(a, b):  # NaN largest, ties (and +-0) to the lowest index
        (am, ai), (bm, bi) = a, b
        an, bn = np.isnan(am), np.isnan(bm)
        b_wins = np.where(an != bn, bn, np.where(an | (am == bm), bi < ai, bm > am))
        return np.where(b_wins, bm, am), np.where(b_wins, bi, ai)
    first_max = lambda r: (r[np.argmax(r)], np.argmax(r)) if len(r) else (-np.inf, 2**63 - 1)
    result = osvs.check_reduction(name="py.max_argmax", fields={"max": "float32", "index": "int64"},
                                  identity=(-np.inf, 2**63 - 1), lift=lambda x, i: (x, i),
                                  combine=combine, reference=first_max, commutative=True,
                                  exact_identity=True)
    assert [(r.law, r.status) for r in result.laws] == [
        (law, "skipped" if law == "cpu_model" else "passed") for law in osvs.reduction_laws()]
    assert all(r.judged > 0 for r in result.laws if r.status == "passed")


def first_max(row):
    return (row[np.argmax(row)], np.argmax(row)) if len(row) else IDENTITY


def test_ties_to_the_larger_index_are_caught_and_shrunk_to_two_elements():
    result = osvs.check_reduction(
        name="py.max_argmax.larger_index", fields=FIELDS, identity=IDENTITY,
        lift=lambda x, i: (x, i), combine=max_argmax_combine(larger_index_on_ties=True),
        reference=first_max, commutative=True, exact_identity=True,
        laws=["accuracy", "associativity"], raise_on_failure=False)
    assert not result.ok
    failed = [r for r in result.laws if r.status == "failed"]
    assert failed, str(result)
    for r in failed:
        row = r.case["row"]
        assert len(row) == 2 and row[0] == row[1], r.case  # a tie of two elements
        assert "index = 1, exact 0" in r.reason, r.reason
        assert osvs.read_regression(r.regression)["law"] == r.law
        fixed = osvs.Reduction(name="py.max_argmax.fixed", fields=FIELDS, identity=IDENTITY,
                               lift=lambda x, i: (x, i), combine=max_argmax_combine(),
                               reference=first_max)
        assert osvs.replay(r.regression, fixed).status == "as_expected"
        with pytest.raises(osvs.LawViolation):
            osvs.replay(r.regression, dataclasses.replace(
                fixed, combine=max_argmax_combine(larger_index_on_ties=True)))
    with pytest.raises(osvs.LawViolation, match="py.max_argmax.larger_index"):
        osvs.check_reduction(name="py.max_argmax.larger_index", fields=FIELDS, identity=IDENTITY,
                             lift=lambda x, i: (x, i),
                             combine=max_argmax_combine(larger_index_on_ties=True),
                             reference=first_max, laws=["accuracy"])


def test_the_per_element_form_runs_the_same_laws():
    def combine(a, b):
        (am, ai), (bm, bi) = a, b
        if np.isnan(am) != np.isnan(bm):
            return b if np.isnan(bm) else a
        if np.isnan(am) or am == bm:
            return b if bi < ai else a
        return b if bm > am else a

    result = osvs.check_reduction(name="py.max_argmax.scalar", fields=FIELDS, identity=IDENTITY,
                                  lift=lambda x, i: (x, i), combine=combine, reference=first_max,
                                  vectorised=False, commutative=True, exact_identity=True,
                                  laws=["special_values", "associativity"], max_cases=20)
    assert [r.status for r in result.laws] == ["passed", "passed"]


def test_a_field_of_another_type_than_declared_is_named():
    result = osvs.check_reduction(name="py.max_argmax.float64", fields=FIELDS, identity=IDENTITY,
                                  lift=lambda x, i: (x.astype(np.float64), i),
                                  combine=max_argmax_combine(), reference=first_max,
                                  laws=["accuracy"], raise_on_failure=False)
    assert result.laws[0].status == "failed"
    assert "lift returned field 'max' as float64; declared float32" in result.laws[0].reason


@pytest.mark.parametrize("declaration, message", [
    ({"fields": {"max": "float16"}}, "field 'max' of type 'float16' is none of float32"),
    ({"identity": (0.0,)}, "identity: 1 values for 2 fields (max, index)"),
    ({"cpu_model": "py.max_argmax.bad"}, "names itself as its CPU model"),
    ({"skip": {"associativty": "typo"}}, "'associativty' is not a reduction law"),
])
def test_declarations_osvs_cannot_use_are_refused_with_the_choices(declaration, message):
    kwargs = dict(name="py.max_argmax.bad", fields=FIELDS, identity=IDENTITY,
                  lift=lambda x, i: (x, i), combine=max_argmax_combine(), reference=first_max)
    kwargs.update(declaration)
    with pytest.raises(ValueError, match=re.escape(message)):
        osvs.check_reduction(**kwargs)
