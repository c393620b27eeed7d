"""MCP over the page's hook == `relate serve --mcp stdio` as a process, call by call.

Each scenario runs once per module on a freshly loaded page and, in step, on a native server
given the same history, then every call is checked as its own test:

  writable   page hook readOnly=false   vs  `serve --mcp stdio --database :memory:` that first got
             the page's CREATE cell as a write_cypher call (the page ran that cell at load, so
             the plan cache has seen it on both sides)
  read-only  page hook readOnly=true    vs  `serve --mcp stdio --database team.rl --read-only`,
             where team.rl was written by `relate --database team.rl "<CREATE cell>"`; the
             scenario only reads, so page and store hold the same graph throughout
"""
from __future__ import annotations

import json

import pytest

from conftest import autorun_statement, reload_index
from native import McpProcess, cli
from parity import assert_parity

READ_STATEMENT = ("MATCH (p:Person)-[w:WORKS_ON]->(:Project {name: $project}) "
                  "RETURN p.name AS name, w.since AS since ORDER BY since")
WRITE_STATEMENT = "CREATE (:Person {name: $name, role: $role})"


def line(id_, method, params=None) -> str:
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":"))


def tool(id_, name, **arguments) -> str:
    return line(id_, "tools/call", {"name": name, "arguments": arguments})


INITIALIZE = line(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "e2e", "version": "0"}})
GET_SCHEMA = tool(4, "get_schema")
READ = tool(5, "read_cypher", statement=READ_STATEMENT, parameters={"project": "relate"})
WRITE = tool(6, "write_cypher", statement=WRITE_STATEMENT, parameters={"name": "Ada", "role": "engineer"})

WRITABLE = [
    ("initialize", INITIALIZE),
    ("notifications/initialized", '{"jsonrpc":"2.0","method":"notifications/initialized"}'),
    ("tools/list", line(2, "tools/list")),
    ("ping", line(3, "ping")),
    ("get_schema button", GET_SCHEMA),
    ("read_cypher button", READ),
    ("write_cypher button", WRITE),
    ("read_cypher again (plan cache)", READ.replace('"id":5', '"id":7')),
    ("get_schema after the write", GET_SCHEMA.replace('"id":4', '"id":8')),
    ("get_schema sample_size 1", tool(9, "get_schema", sample_size=1)),
    ("read_cypher refuses CREATE", tool(10, "read_cypher", statement="CREATE (:Person {name: $name})",
                                        parameters={"name": "Ada"})),
    ("write_cypher refuses a read", tool(11, "write_cypher", statement="MATCH (n) RETURN n")),
    ("read_cypher syntax error", tool(12, "read_cypher", statement="MATCH (n RETURN n")),
    ("read_cypher missing parameter", tool(13, "read_cypher", statement=READ_STATEMENT)),
    ("read_cypher without statement", tool(14, "read_cypher", query="MATCH (n) RETURN n")),
    ("parameters not an object", tool(15, "read_cypher", statement="RETURN 1", parameters=[1])),
    ("sample_size negative", tool(16, "get_schema", sample_size=-2)),
    ("unknown tool", tool(17, "drop_everything")),
    ("unknown method", line(18, "resources/list")),
    ("tools/call without name", line(19, "tools/call", {})),
    ("extra member", '{"jsonrpc":"2.0","id":20,"method":"ping","extra":true}'),
    ("JSON-RPC 1.0", '{"jsonrpc":"1.0","id":21,"method":"ping"}'),
    ("not JSON", "not json"),
    ("nodes in a read", tool(22, "read_cypher", statement="MATCH (p:Person {name: 'Noor'}) RETURN p")),
]

READ_ONLY = [
    ("initialize", INITIALIZE),
    ("tools/list", line(2, "tools/list")),
    ("ping", line(3, "ping")),
    ("get_schema button", GET_SCHEMA),
    ("read_cypher button", READ),
    ("read_cypher again (plan cache)", READ.replace('"id":5', '"id":7')),
    ("write_cypher button is an unknown tool", WRITE),
    ("read_cypher refuses CREATE", tool(8, "read_cypher", statement="CREATE (:Person {name: $name})",
                                       parameters={"name": "Ada"})),
    ("get_schema sample_size 1", tool(9, "get_schema", sample_size=1)),
]


def run_scenario(page, steps, read_only, native) -> dict:
    """Send each step to the page and to the native process in turn -> {step: (browser, native)}."""
    answers = {}
    for name, request in steps:
        try:
            reply = page.evaluate("([l, ro]) => window.relate.mcp(l, {readOnly: ro})", [request, read_only])
            browser = [] if reply is None else [reply]
        except Exception as exc:  # a Python error in the page: report it for this step only
            browser = [f"<browser raised> {exc}"]
        answers[name] = (browser, native.send(request))
    return answers


@pytest.fixture(scope="module")
def writable(shared_page):
    reload_index(shared_page)
    create = autorun_statement(shared_page)
    with McpProcess(":memory:") as native:
        setup = native.send(tool(0, "write_cypher", statement=create))
        assert len(setup) == 1 and '"isError":false' in setup[0], setup
        return run_scenario(shared_page, WRITABLE, False, native)


@pytest.fixture(scope="module")
def read_only(shared_page, tmp_path_factory):
    reload_index(shared_page)
    create = autorun_statement(shared_page)
    folder = tmp_path_factory.mktemp("team-store")
    made = cli(["--database", "team.rl", create], cwd=str(folder))
    assert made["exitCode"] == 0, made
    with McpProcess("team.rl", read_only=True, cwd=str(folder)) as native:
        return run_scenario(shared_page, READ_ONLY, True, native)


@pytest.mark.parametrize("step", [name for name, _ in WRITABLE])
def test_writable_server(step, writable, page):
    browser, native = writable[step]
    assert_parity(browser, native, f"{step}: {dict(WRITABLE)[step]}")


@pytest.mark.parametrize("step", [name for name, _ in READ_ONLY])
def test_read_only_server(step, read_only, page):
    browser, native = read_only[step]
    assert_parity(browser, native, f"{step} (--read-only): {dict(READ_ONLY)[step]}")
