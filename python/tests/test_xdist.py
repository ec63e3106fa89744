"""Checks under pytest-xdist: the same verdicts and the same regression files as one process.

The seeds are fixed per check (not per session or per worker), so a check's cases do not depend
on which worker runs it or in which order; regression files are written once each, through a
private temporary linked to their name, so workers that save the same case at once neither
overwrite each other nor leave a partial file. Two identical failing tests below save the same
case, from two workers at once under -n 2.
"""

import json
import os
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("xdist", reason="pytest-xdist is not installed (pip install pytest-xdist)")

TEST_FILE = """
import numpy as np
import pytest
import osvs

def softmax(x):
    with np.errstate(all="ignore"):
        x64 = x.astype(np.float64)
        e = np.exp(x64 - np.max(x64, axis=1, keepdims=True, initial=-np.inf))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

def softmax_tail_dropped(x):
    y = softmax(x)
    y[:, x.shape[1] // 4 * 4:] = 0
    return y

def softmax_without_max(x):
    with np.errstate(all="ignore"):
        e = np.exp(x.astype(np.float64)).astype(np.float32)
        return e / e.sum(axis=1, keepdims=True)

LAWS = ["accuracy", "sum_to_one", "permutation"]

@pytest.mark.parametrize("copy", [0, 1])
def test_same_failure_twice(copy):
    osvs.check_softmax(softmax_tail_dropped, name="xdist.tail_dropped", accuracy=4, laws=LAWS)

def test_other_failure():
    osvs.check_softmax(softmax_without_max, name="xdist.without_max", accuracy=4, laws=LAWS)

@pytest.mark.parametrize("copy", [0, 1])
def test_passes(copy):
    osvs.check_softmax(softmax, name="xdist.softmax", accuracy=4, laws=LAWS)
"""


def outcomes(junit_xml):
    """Each test's outcome from pytest's JUnit XML: passed, failed or skipped."""
    result = {}
    for case in ET.parse(junit_xml).getroot().iter("testcase"):
        name = case.get("classname") + "::" + case.get("name")
        failed = case.find("failure") is not None or case.find("error") is not None
        result[name] = "failed" if failed else ("skipped" if case.find("skipped") is not None
                                                else "passed")
    return result


def regression_files(root):
    """Every regression file under root, by relative path, without its provenance (when and
    where it was found, which differ between runs)."""
    files = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            path = os.path.join(dirpath, n)
            with open(path) as f:
                record = json.load(f)
            record.pop("found", None)
            files[os.path.relpath(path, root)] = record
    return files


def test_xdist_gives_the_verdicts_and_files_of_one_process(pytester, tmp_path):
    pytester.makepyfile(test_generated=TEST_FILE)
    runs = {}
    # Shrinking must end by itself, not at its time budget, for the saved cases to be the same in
    # both runs: these failures shrink in well under a second; the budget only bounds a stall.
    for label, args in (("serial", ()), ("xdist", ("-n", "2"))):
        regressions, junit = tmp_path / f"{label}-regressions", tmp_path / f"{label}.xml"
        pytester.runpytest_subprocess(f"--osvs-regressions={regressions}",
                                      "--osvs-max-cases=20", "--osvs-shrink-seconds=30",
                                      f"--junitxml={junit}", "-p", "no:cacheprovider", *args)
        runs[label] = (outcomes(junit), regression_files(regressions))
    serial, xdist = runs["serial"], runs["xdist"]
    assert sorted(serial[0].values()) == ["failed"] * 3 + ["passed"] * 2, serial[0]
    assert xdist[0] == serial[0]
    assert serial[1], "the failing checks saved no regression file"
    assert xdist[1] == serial[1]
    leftovers = [n for _, _, names in os.walk(tmp_path / "xdist-regressions") for n in names
                 if ".tmp." in n]
    assert leftovers == [], leftovers
