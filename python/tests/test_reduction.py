"""State reductions declared in Python: a (max, argmax) reduction in ten lines passes every law;
the same with its tie rule broken (ties to the larger index) is caught and shrunk to two
elements; the per-element form runs the same laws; the vectorised order is the harness order;
a mean with its finalisation within a derived tolerance passes, its float32-sum twin fails;
declarations osvs cannot use are named."""

import dataclasses
import math
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


def flattened(schedules):
    """Schedules (row, chunk_offsets, slot_chunk, merges, root) as the core hands them to a
    launch (kernels/harness_flat.h: every case's parts appended, its offsets one more than its
    chunks)."""
    d = {k: [] for k in ("values", "chunk_offsets", "slot_chunk", "merge_dst", "merge_src",
                         "row_begin", "chunk_begin", "slot_begin", "merge_begin", "num_chunks",
                         "num_slots", "num_merges", "root")}
    chunks = 0
    for row, offsets, slots, merges, root in schedules:
        for key, value in (("row_begin", len(d["values"])), ("chunk_begin", chunks),
                           ("slot_begin", len(d["slot_chunk"])),
                           ("merge_begin", len(d["merge_dst"])), ("num_chunks", len(offsets) - 1),
                           ("num_slots", len(slots)), ("num_merges", len(merges)), ("root", root)):
            d[key].append(value)
        d["values"] += row
        d["chunk_offsets"] += offsets
        d["slot_chunk"] += slots
        d["merge_dst"] += [m[0] for m in merges]
        d["merge_src"] += [m[1] for m in merges]
        chunks += len(offsets) - 1
    types = {"values": np.float32, "slot_chunk": np.int32, "merge_dst": np.int32,
             "merge_src": np.int32}
    return {k: np.array(v, dtype=types.get(k, np.int64)) for k, v in d.items()}


def test_the_vectorised_order_is_the_harness_order_schedule_for_schedule():
    # combine(a, b) = a * P + b (wrapping): neither commutative nor associative, so the root's
    # bits spell out the order of every lift and combine.
    combine = lambda a, b: (a[0] * np.int64(1000003) + b[0],)
    lift = lambda x, i: ((x * 7).astype(np.int64) + i,)
    schedules = [([1, 2, 3, 4, 5], [0, 2, 2, 5], [2, 0, 1], [(1, 2), (0, 1)], 0),
                 ([6, 7, 8], [0, 1, 3], [1, 0], [(1, 0)], 1),
                 ([9], [0, 1], [0], [], 0), ([], [0, 0], [0], [], 0)]
    r = osvs.Reduction(name="py.order", fields={"code": "int64"}, identity=(5,), lift=lift,
                       combine=combine, reference=lambda row: (0,))
    states, results = r.call(flattened(schedules))

    def literal(row, offsets, slots, merges, root):  # kernels/harness_model.h, line for line
        chunk = []
        for k in range(len(offsets) - 1):
            v = (np.array([5], np.int64),)
            for j in range(offsets[k], offsets[k + 1]):
                v = combine(v, lift(np.array([row[j]], np.float32), np.array([j], np.int64)))
            chunk.append(v)
        slot = [chunk[c] for c in slots]
        for dst, src in merges:
            slot[dst] = combine(slot[dst], slot[src])
        return slot[root][0].view(np.uint64)[0]

    assert list(states[:, 0]) == [literal(*s) for s in schedules]
    assert (results == states).all()


def exact_mean(row):
    """(count, mean) of a row: NaN for NaN, both infinities or none; an infinity's sign alone."""
    n = len(row)
    if n == 0 or np.isnan(row).any() or (np.isposinf(row).any() and np.isneginf(row).any()):
        return n, np.nan
    if np.isinf(row).any():
        return n, float(row[np.isinf(row)][0])
    return n, math.fsum(float(x) for x in row) / n  # within 2 u |mean| (u = 2^-53)


def mean_tolerance(field, row, depth, exact):
    """The sum in binary64 of binary32 values (each lifted exactly): every combine rounds once,
    |error| <= u sum |x| of its elements, so a schedule of depth D ends within D u sum|x|
    (first order; (1 + 2^-40) for the rest, D u < 2^-40 here); the quotient by n adds u |mean|
    and the reference 2 u |mean|. The count is exact."""
    u = 2.0**-53
    if field == 0:
        return 0.0
    finite = row[np.isfinite(row)].astype(np.float64)
    return (depth * u * np.abs(finite).sum() / max(len(row), 1)) * (1 + 2.0**-40) \
        + 3 * u * abs(exact[1])


def add_counts_and_sums(a, b):
    with np.errstate(invalid="ignore"):  # inf + -inf is NaN, as the reference says
        return a[0] + b[0], a[1] + b[1]


def mean_reduction(name, sum_type):
    return osvs.Reduction(
        name=name, fields={"n": "int64", "sum": sum_type}, identity=(0, 0.0),
        lift=lambda x, i: (np.ones_like(i), x.astype(sum_type)),
        combine=add_counts_and_sums,
        finalise=lambda s: (s[0], np.divide(s[1].astype(np.float64), s[0],
                                            where=s[0] > 0, out=np.full(len(s[0]), np.nan))),
        result_fields={"count": "int64", "mean": "float64"}, reference=exact_mean,
        tolerance=mean_tolerance, commutative=True, exact_identity=True)


def test_a_finalised_result_within_a_derived_tolerance_and_its_float32_twin_caught():
    assert osvs.check(mean_reduction("py.mean", "float64")).ok
    result = osvs.check(mean_reduction("py.mean.float32_sum", "float32"), laws=["accuracy"],
                        raise_on_failure=False)
    (law,) = result.laws
    assert law.status == "failed" and "mean = " in law.reason, law.reason
    assert len(law.case["row"]) <= 2, law.case  # 1 and a value below its half ulp
