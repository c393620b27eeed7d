"""The 2026-07-28 revision and the budgets over the page's hook (`window.relate.mcp` with its
options) == `relate serve --mcp stdio` with the same flags, call by call: new-era requests beside
legacy ones, a result cut by `--result-budget-bytes`, `--structured-content`, and the budgets named
in the tool list and `server/discover`."""
from __future__ import annotations

import json

import pytest

from conftest import reload_index
from native import McpProcess
from parity import assert_parity

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "0"}}
ROWS = "UNWIND range(1, 5) AS i RETURN i"


def line(id_, method, params=None, modern=False) -> str:
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if modern:
        params = {"_meta": META, **(params or {})}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":"))


def read(id_, statement, modern=False) -> str:
    return line(id_, "tools/call", {"name": "read_cypher", "arguments": {"statement": statement}}, modern)


STEPS = [
    ("server/discover", line(1, "server/discover", modern=True)),
    ("tools/list (new era)", line(2, "tools/list", modern=True)),
    ("tools/list (legacy)", line(3, "tools/list")),
    ("read_cypher cut (new era)", read(4, ROWS, modern=True)),
    ("read_cypher cut (legacy)", read(5, ROWS)),
    ("read_cypher whole", read(6, "RETURN 1 AS one")),
    ("unsupported version",
     line(7, "tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}})),
    ("unknown method (new era)", line(8, "resources/list", modern=True)),
    ("initialize", line(9, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})),
]
# `relate serve` flags and the page hook's options that mean the same
FLAGS = ("--result-budget-bytes", "20", "--structured-content", "--call-timeout-secs", "30")
OPTIONS = {"resultBudgetBytes": 20, "structuredContent": True, "callTimeoutSecs": 30}


@pytest.fixture(scope="module")
def answers(shared_page):
    reload_index(shared_page)
    out = {}
    with McpProcess(":memory:", extra=FLAGS) as native:
        for name, request in STEPS:
            reply = shared_page.evaluate("([l, o]) => window.relate.mcp(l, o)", [request, OPTIONS])
            out[name] = ([] if reply is None else [reply], native.send(request))
    return out


@pytest.mark.parametrize("step", [name for name, _ in STEPS])
def test_new_era_and_budgets_match_native(step, answers, page):
    browser, native = answers[step]
    assert_parity(browser, native, f"{step}: {dict(STEPS)[step]}")


def test_the_cut_is_visible(answers, page):
    reply = json.loads(answers["read_cypher cut (new era)"][1][0])["result"]
    assert reply["structuredContent"]["rowCap"] == {"kept": 2, "total": 5}
    assert reply["resultType"] == "complete"
