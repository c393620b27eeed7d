"""The JSON output modes and the MCP replies write numbers with one writer (serde_json's text)."""
from __future__ import annotations

import json

import pytest

import relate
from relate.output import render
from relate.protocols.mcp import McpServer
from relate.result import Result

FLOATS = [(1e-7, "1e-7"), (1e-5, "0.00001"), (0.5, "0.5"), (3.0, "3.0"), (1e20, "1e20"),
          (1.5e300, "1.5e300"), (-0.0, "-0.0"), (123456789.125, "123456789.125")]


@pytest.mark.parametrize(("value", "text"), FLOATS)
def test_jsonl_and_envelope_print_floats_in_shortest_form(value, text):
    result = Result(statement="RETURN $x AS x", columns=("x",), rows=[(value,)])
    assert render(result, "jsonl").stdout.splitlines()[0] == '{"x":' + text + "}"
    assert '"rows":[{"x":' + text + "}]" in render(result, "envelope").stdout


def test_cli_and_mcp_print_the_same_row_bytes():
    statement = "RETURN 1.0e-7 AS tiny, 1.0e20 AS huge, 'naïve' AS text, [0.1, {b: 2, a: 1}] AS nested"
    db = relate.connect()
    row_line = render(db.execute(statement), "jsonl").stdout.splitlines()[0]
    reply = McpServer(db).handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "read_cypher", "arguments": {"statement": statement}}}))
    text = json.loads(reply)["result"]["content"][0]["text"]
    assert row_line == '{"huge":1e20,"nested":[0.1,{"a":1,"b":2}],"text":"naïve","tiny":1e-7}'
    assert '"rows":[' + row_line + "]" in text
