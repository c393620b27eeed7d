"""Lint and types, as configured in pyproject.toml: `ruff check` over relate/ and tests/
(`[tool.ruff]`) and `mypy` over the files `[tool.mypy]` lists.  A finding fails the test with the
tool's own report; neither tool writes a cache here."""
from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing():
    out = _run("ruff", "check", "--no-cache", "--output-format", "concise", "relate", "tests")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_finds_nothing():
    out = _run("mypy", "--cache-dir", os.devnull)
    assert out.returncode == 0, out.stdout + out.stderr
