"""Every `bash verify` block of every page, run against the native `relate`: the output the page
shows (timings as `<ms>`) and the exit status the block declares must be what the commands give.

A page's blocks run in order in one fresh folder, as a reader pasting them one after another
would; each block is its own test, so a drifted output names its page and line.
"""
from __future__ import annotations

import pytest

from docs import PAGE_NAMES, cases, run_verify
from parity import assert_parity

CASES = [pytest.param(name, n, id=f"{name}.md:{case.line}")
         for name in PAGE_NAMES for n, case in enumerate(cases(name))]


@pytest.fixture(scope="session")
def page_runs(tmp_path_factory):
    """Runs a page's blocks once, in order, on first use -> {page: [(output, exit status)]}."""
    done: dict[str, list[tuple[str, int]]] = {}

    def run(name: str) -> list[tuple[str, int]]:
        if name not in done:
            folder = tmp_path_factory.mktemp(f"verify-{name}")
            home = tmp_path_factory.mktemp(f"home-{name}")
            done[name] = [run_verify(case, folder, home) for case in cases(name)]
        return done[name]
    return run


def test_every_page_has_checked_blocks():
    """Pages about the binary show it running; the Cypher guide and the overview teach with cells."""
    without = [name for name in PAGE_NAMES if not cases(name) and name not in ("index",)]
    assert without == []


@pytest.mark.parametrize(("name", "n"), CASES)
def test_verify_block(name, n, page_runs):
    case = cases(name)[n]
    output, status = page_runs(name)[n]
    assert_parity(output, case.expected, f"web/{name}.md line {case.line}", names=("relate", "the page"))
    assert status == case.exit_code, \
        f"web/{name}.md line {case.line}: exit {status}, the page says {case.exit_code}\n{output}"
