"""Schema commands are writes for every front door: a read-only store or policy refuses them, MCP
runs them through write_cypher only; SHOW is a read (read_cypher runs it, write_cypher refuses it)."""
from __future__ import annotations

import json

import pytest

import relate
from relate.errors import RelateError
from relate.policy import Policy
from relate.protocols.mcp import McpServer

COMMANDS = ["CREATE CONSTRAINT c FOR (p:P) REQUIRE p.k IS UNIQUE", "DROP CONSTRAINT c",
            "CREATE TEXT INDEX t FOR (p:P) ON (p.k)", "DROP INDEX t IF EXISTS"]


def call(server, tool, statement):
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": tool, "arguments": {"statement": statement}}})
    return json.loads(server.handle_line(line))["result"]


def test_read_only_store_and_policy_refuse_schema_commands(tmp_path):
    path = str(tmp_path / "g.rl")
    relate.connect(path).close()
    for db in (relate.connect(path, read_only=True), relate.connect(":memory:", policy=Policy(read_only=True))):
        for text in COMMANDS:
            with pytest.raises(RelateError) as info:
                db.execute(text)
            assert info.value.kind == "ReadOnly"
        assert db.execute("SHOW CONSTRAINTS").rows == []
        db.close()


def test_mcp_runs_schema_commands_through_write_cypher_only():
    db = relate.connect()
    rw = McpServer(db)
    for text in COMMANDS:
        res = call(rw, "read_cypher", text)
        assert res["isError"] and res["content"][0]["text"] == "Only MATCH queries are allowed for read-query"
    assert db.execute("SHOW CONSTRAINTS").rows == []
    res = call(rw, "write_cypher", COMMANDS[0])
    assert json.loads(res["content"][0]["text"])["stats"]["constraints_added"] == 1
    res = call(rw, "read_cypher", "SHOW CONSTRAINTS YIELD name")
    assert json.loads(res["content"][0]["text"])["rows"] == [{"name": "c"}]
    assert call(rw, "write_cypher", "SHOW INDEXES")["isError"]
    res = call(rw, "write_cypher", "CREATE (:P {k: 1}), (:P {k: 1})")
    assert res["isError"] and "UniquenessConstraintViolation" in res["content"][0]["text"]
