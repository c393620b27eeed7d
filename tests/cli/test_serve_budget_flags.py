"""`relate serve --result-budget-bytes N` and `--structured-content`: bad values are usage errors
(exit 2) before any store opens, and `relate agent-context` lists both flags."""
from __future__ import annotations

import io
import json

import pytest

from relate.cli.main import run


@pytest.mark.parametrize("value, message", [
    ("1", "Error: --result-budget-bytes takes 0 (no budget) or at least 2; got '1'"),
    ("-5", "Error: --result-budget-bytes takes a whole number, at least 0; got '-5'"),
    ("4KiB", "Error: --result-budget-bytes takes a whole number, at least 0; got '4KiB'"),
])
def test_bad_budgets_are_refused(value, message):
    out, err = io.StringIO(), io.StringIO()
    code = run(["serve", "--mcp", "stdio", "--result-budget-bytes", value], stdout=out, stderr=err)
    assert code == 2
    assert message in out.getvalue() + err.getvalue()


def test_agent_context_lists_the_budget_flags():
    out = io.StringIO()
    assert run(["agent-context", "--json"], stdout=out, stderr=io.StringIO()) == 0
    serve = next(c for c in json.loads(out.getvalue())["commands"] if c["command"] == "relate serve")
    names = {name for flag in serve["flags"] for name in flag["names"]}
    assert {"--result-budget-bytes", "--structured-content", "--call-timeout-secs"} <= names
