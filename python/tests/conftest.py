"""Settings of osvs's own Python tests: fixed seed (the plugin's default), failures saved under a
folder of the test session (never in the source tree), a shrinking budget that keeps the suite
short. pytest's options (--osvs-seed, ...) and RC_PARAMS still override them."""

import os

import pytest

import osvs


@pytest.fixture(scope="session", autouse=True)
def _regressions_in_session_folder(tmp_path_factory, pytestconfig):
    def unset(option, variable):
        return pytestconfig.getoption(option) is None and variable not in os.environ

    changes = {}
    if unset("osvs_regressions", "OSVS_REGRESSION_DIR"):
        changes["regression_dir"] = str(tmp_path_factory.mktemp("osvs-regressions"))
    if unset("osvs_shrink_seconds", "OSVS_SHRINK_SECONDS"):
        changes["shrink_seconds"] = 10.0
    osvs.set_defaults(**changes)

pytest_plugins = ["pytester"]  # test_pytest_plugin.py runs pytest on generated test files
