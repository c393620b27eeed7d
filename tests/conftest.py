"""Shared fixtures: a team graph database and the path to the shared reference material."""
from __future__ import annotations

from pathlib import Path

import pytest

import relate
from tests import error_record

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

from tests.team import TEAM  # noqa: E402,F401  (the fixtures' graph; tests import it from here)


def pytest_configure(config):
    # tests/pyodide runs tests/unit inside Pyodide too, leaving out these (the browser has neither)
    config.addinivalue_line("markers", "needs_processes: the test starts a thread or a process")
    config.addinivalue_line("markers", "needs_native_stack: the test builds a value nested thousands deep "
                                       "(freeing it overflows Pyodide's stack)")
    error_record.install()  # every RelateError the session makes must have a declared kind


def pytest_runtest_logstart(nodeid, location):
    error_record.at(nodeid)


def pytest_sessionfinish(session, exitstatus):
    if error_record.undeclared() and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    lines = error_record.undeclared()
    if lines:
        terminalreporter.section("errors of undeclared kinds", red=True)
        for line in lines:
            terminalreporter.line(line)


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files from the current output")


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


@pytest.fixture
def db():
    return relate.connect(":memory:")


@pytest.fixture
def team(db):
    db.execute(TEAM)
    return db
