"""The pytest plugin: a failing check fails its test with the shrunk case printed, the seed is
fixed unless an option or RC_PARAMS says otherwise, and the header says which settings ran."""

import os

import pytest

TEST_FILE = """
import numpy as np
import osvs

def test_softmax_that_forgets_the_tail():
    def softmax(x):
        e = np.exp(x - x.max(axis=1, keepdims=True, initial=-np.inf))
        y = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        y[:, -1:] = 0
        return y

    osvs.check_softmax(softmax, name="plugin.softmax", accuracy=4, laws=["accuracy"])

def test_fixture(osvs_check):
    assert osvs_check.replay_dir is None
"""


@pytest.fixture
def run(pytester, tmp_path):
    pytester.makepyfile(test_generated=TEST_FILE)

    def run(*args, **env):
        for k, v in env.items():
            os.environ[k] = v
        try:
            return pytester.runpytest_subprocess(
                f"--osvs-regressions={tmp_path}", *args)
        finally:
            for k in env:
                del os.environ[k]

    return run


def test_failure_prints_the_shrunk_case(run):
    result = run("--osvs-shrink-seconds=5")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*osvs: seed=20261130 max_cases=100*",
                                 "*accuracy: failed:*", "*shrunk case*1 row(s) of 1 elements*",
                                 "*row 0: *", "*saved *plugin.softmax/accuracy-*.json*"])


def test_seed_from_option_and_from_rc_params(run):
    run("--osvs-seed=7").stdout.fnmatch_lines(["*osvs: seed=7 *"])
    run(RC_PARAMS="seed=11 max_success=20").stdout.fnmatch_lines(
        ["*osvs: seed=11 max_cases=20 *"])
