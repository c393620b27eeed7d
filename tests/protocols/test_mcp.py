"""The MCP core, request line in and reply line out, as a host sees it."""
from __future__ import annotations

import json

import pytest

import relate
from relate.protocols.mcp import McpServer
from tests.conftest import TEAM


def call(server, id_, tool, **arguments):
    line = json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}})
    reply = json.loads(server.handle_line(line))
    return reply["result"]


@pytest.fixture
def servers():
    db = relate.connect()
    db.execute(TEAM)
    return McpServer(db), McpServer(db, read_only=True)


def test_tools_list_depends_on_read_only(servers):
    rw, ro = servers

    def names(s):
        reply = json.loads(s.handle_line('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))
        return [t["name"] for t in reply["result"]["tools"]]

    assert names(rw) == ["write_cypher", "read_cypher", "get_schema"]
    assert names(ro) == ["read_cypher", "get_schema"]


def test_initialize_echoes_protocol_version(servers):
    rw, _ = servers
    reply = rw.handle_line('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}')
    assert reply == ('{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}},"protocolVersion":"2025-06-18",'
                     '"serverInfo":{"name":"relate-mcp","version":"0.1.2"}}}')
    assert '"2024-11-05"' in rw.handle_line('{"jsonrpc":"2.0","id":2,"method":"initialize"}')


def test_notifications_get_no_reply(servers):
    assert servers[0].handle_line('{"jsonrpc":"2.0","method":"notifications/initialized"}') is None


def test_read_cypher_rows_and_plan(servers):
    res = call(servers[1], 1, "read_cypher", statement="MATCH (p:Person) RETURN p.name AS name ORDER BY name")
    env = json.loads(res["content"][0]["text"])
    assert res["isError"] is False
    assert env["rows"] == [{"name": "Ada"}, {"name": "Grace"}, {"name": "Noor"}]
    assert env["plan"]["schema"] == "relate.plan/v1" and env["error"] is None


def test_read_cypher_refuses_writes_and_leaves_the_store_unchanged(servers):
    rw, _ = servers
    for stmt in ["CREATE (:X)", "MATCH (n) DETACH DELETE n", "CREATE INDEX i FOR (p:Person) ON (p.name)"]:
        res = call(rw, 1, "read_cypher", statement=stmt)
        assert res == {"content": [{"text": "Only MATCH queries are allowed for read-query", "type": "text"}],
                       "isError": True}
    count = call(rw, 2, "read_cypher", statement="MATCH (n) RETURN count(n) AS n")
    assert json.loads(count["content"][0]["text"])["rows"] == [{"n": 5}]


def test_write_cypher_refuses_reads_and_returns_counters(servers):
    rw, ro = servers
    assert call(rw, 1, "write_cypher", statement="RETURN 1")["content"][0]["text"] == \
        "Only write queries are allowed for write-query"
    res = call(rw, 2, "write_cypher", statement="CREATE (n:T {a: 1}) RETURN n")
    env = json.loads(res["content"][0]["text"])
    assert env["rows"] == [] and env["columns"] == [] and env["stats"]["nodes_created"] == 1
    assert call(ro, 3, "write_cypher", statement="CREATE (:T)")["content"][0]["text"] == "unknown tool 'write_cypher'"


def test_explain_inside_a_tool_is_a_syntax_error(servers):
    res = call(servers[0], 1, "read_cypher", statement="EXPLAIN RETURN 1")
    assert res["content"][0]["text"] == 'Error: syntax error: parse error: unexpected token "EXPLAIN"'


def test_get_schema_sampling(servers):
    full = json.loads(call(servers[0], 1, "get_schema")["content"][0]["text"])
    assert sorted(full["Person"]["relationships"]) == ["KNOWS", "MAINTAINS", "WORKS_ON"]
    one = json.loads(call(servers[0], 2, "get_schema", sample_size=1)["content"][0]["text"])
    assert one["Person"]["count"] == 3 and list(one["Person"]["relationships"]) == ["WORKS_ON"]
    bad = call(servers[0], 3, "get_schema", sample_size=-2)
    assert bad["content"][0]["text"] == "invalid params: sample_size must be -1 or non-negative, got -2"


def test_jsonrpc_errors(servers):
    rw, _ = servers
    assert rw.handle_line('{"jsonrpc":"2.0","id":1,"method":"resources/list"}') == \
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: resources/list"}}'
    assert rw.handle_line("not json") == ('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,'
                                          '"message":"malformed JSON-RPC message: expected ident at line 1 column 2"}}')
