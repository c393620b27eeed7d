"""A result's timings: `parse_ms + plan_ms + execute_ms` never exceeds `elapsed_ms`, on the first
call of a statement (planned in that call) and on a cached one, whichever way the call comes in:
`execute`, `prepare` then `run` (how the MCP tools call the engine), or an MCP tool call."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

import relate
from relate.protocols.mcp import McpServer

STATEMENTS = [
    "RETURN 1 AS one",
    "UNWIND range(1, 200) AS i RETURN sum(i) AS total",
    "CREATE (:Person {name: 'Ada'})",
    "MATCH (p:Person) RETURN p.name AS name",
    "MATCH (p:Person) SET p.seen = true",
    "EXPLAIN MATCH (p:Person) RETURN p",
    "MERGE (c:City {name: 'Oslo'}) RETURN c.name",
]


def _within(t) -> bool:
    return t.parse_ms + t.plan_ms + t.execute_ms <= t.elapsed_ms


def test_first_and_cached_calls_through_prepare_then_run(db):
    for round_ in range(3):
        for text in STATEMENTS:
            prepared = db.prepare(text)
            result = db.run(prepared)
            assert _within(result.timings), (round_, text, result.timings)
            if round_ == 0:  # the first call planned: its elapsed time holds the planning
                assert result.plan_cache == "miss"
                assert result.timings.elapsed_ms >= result.timings.parse_ms + result.timings.plan_ms > 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(range(len(STATEMENTS))), min_size=1, max_size=12), st.booleans())
def test_any_sequence_of_calls(picks, split):
    db = relate.connect(":memory:")
    for i in picks:
        text = STATEMENTS[i]
        result = db.run(db.prepare(text)) if split else db.execute(text)
        assert _within(result.timings), (text, result.timings)


def test_mcp_tool_calls():
    server = McpServer(relate.connect(":memory:"))
    for n, text in enumerate(STATEMENTS * 2):
        tool = "read_cypher" if text.startswith(("RETURN", "UNWIND", "MATCH (p:Person) RETURN")) else "write_cypher"
        if text.startswith("EXPLAIN"):
            continue  # the tools plan every call as EXPLAIN themselves
        line = json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                           "params": {"name": tool, "arguments": {"statement": text}}})
        reply = json.loads(server.handle_line(line))["result"]
        assert reply["isError"] is False, reply
        body = json.loads(reply["content"][0]["text"])
        assert body["parse_ms"] + body["plan_ms"] + body["execute_ms"] <= body["elapsed_ms"], (text, body)
