"""pytest plugin of osvs (loaded by the ``pytest11`` entry point once osvs is installed).

Checks run with the fixed seed of osvs._settings unless told otherwise:

    pytest --osvs-seed=1234 --osvs-max-cases=500    # or RC_PARAMS="seed=1234 max_success=500"
    pytest --osvs-regressions=DIR                   # where shrunk failures are saved
    pytest --osvs-replay-dir=DIR                    # saved cases replayed first by the fixture

A failing check raises LawViolation, whose message pytest prints: the law, the verdict, the shrunk
case as hex floats and the regression file. The ``osvs_check`` fixture gives check_softmax,
check_merge and replay with the session's settings and replay folder; the settings in use are
printed in pytest's header.
"""

from __future__ import annotations

import functools

import pytest

from . import _check, _settings


def pytest_addoption(parser):
    group = parser.getgroup("osvs", "osvs property checks")
    group.addoption("--osvs-seed", type=int, default=None,
                    help=f"RapidCheck seed of every check (default {_settings.DEFAULT_SEED})")
    group.addoption("--osvs-max-cases", type=int, default=None,
                    help="generated cases per law (default 100)")
    group.addoption("--osvs-max-size", type=int, default=None,
                    help="RapidCheck's largest size: row lengths grow with it (default 100)")
    group.addoption("--osvs-shrink-seconds", type=float, default=None,
                    help="shrinking budget per law in seconds (default 20)")
    group.addoption("--osvs-regressions", default=None,
                    help="folder where shrunk failures are written (default ./osvs-regressions)")
    group.addoption("--osvs-replay-dir", default=None,
                    help="folder of saved cases the osvs_check fixture replays first")


def pytest_configure(config):
    opt = config.getoption
    changes = {"seed": opt("osvs_seed"), "max_cases": opt("osvs_max_cases"),
               "max_size": opt("osvs_max_size"), "shrink_seconds": opt("osvs_shrink_seconds"),
               "regression_dir": opt("osvs_regressions")}
    _settings.set_defaults(**{k: v for k, v in changes.items() if v is not None})


def pytest_report_header(config):
    s = _settings.defaults()
    return (f"osvs: seed={s.seed} max_cases={s.max_cases} max_size={s.max_size} "
            f"shrink_seconds={s.shrink_seconds:g} regressions={s.regression_dir}")


class Checks:
    """check_softmax / check_log_softmax / check_merge / replay with the session's replay folder."""

    def __init__(self, replay_dir):
        self.replay_dir = replay_dir
        self.check_softmax = functools.partial(_check.check_softmax, replay_dir=replay_dir)
        self.check_log_softmax = functools.partial(_check.check_log_softmax,
                                                   replay_dir=replay_dir)
        self.check_merge = functools.partial(_check.check_merge, replay_dir=replay_dir)
        self.check = functools.partial(_check.check, replay_dir=replay_dir)
        self.replay = _check.replay


@pytest.fixture
def osvs_check(request) -> Checks:
    return Checks(request.config.getoption("osvs_replay_dir"))
