"""The 2026-07-28 revision beside the handshake, through the protocol core (no transport): a request
whose `_meta` names the new protocol version gets the new era's answers (`server/discover`,
`resultType`, cache hints, `structuredContent`), and a legacy request the same bytes as before."""
from __future__ import annotations

import json

import pytest

import relate
from relate.protocols.mcp import McpServer
from relate.protocols.tools import tool_list
from tests.conftest import TEAM

V = "io.modelcontextprotocol/protocolVersion"
META = {V: "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"}}


def line(id_, method, params=None):
    body = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body)


def modern(server, id_, method, **params):
    return json.loads(server.handle_line(line(id_, method, {"_meta": META, **params})))


@pytest.fixture
def team_db():
    db = relate.connect()
    db.execute(TEAM)
    return db


def test_discover_names_the_new_revision_and_the_server(team_db):
    reply = modern(McpServer(team_db), 1, "server/discover")
    result = reply["result"]
    assert result["supportedVersions"] == ["2026-07-28"]
    assert result["capabilities"] == {"tools": {}}
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"] == {"name": "relate-mcp", "version": "0.1.2"}
    assert result["resultType"] == "complete"
    assert result["cacheScope"] == "public" and result["ttlMs"] == 300000
    assert "instructions" not in result  # no budget is on


def test_new_era_tools_list_has_result_type_and_cache_hints(team_db):
    result = modern(McpServer(team_db), 2, "tools/list")["result"]
    assert result["tools"] == tool_list(False)
    assert (result["resultType"], result["ttlMs"], result["cacheScope"]) == ("complete", 300000, "public")


def test_new_era_tool_call_returns_structured_content_beside_the_text(team_db):
    result = modern(McpServer(team_db), 3, "tools/call", name="read_cypher",
                    arguments={"statement": "MATCH (p:Person) RETURN p.name AS name ORDER BY name LIMIT 2"})["result"]
    assert result["resultType"] == "complete" and result["isError"] is False
    assert "ttlMs" not in result and "cacheScope" not in result
    assert result["structuredContent"] == json.loads(result["content"][0]["text"])
    assert result["structuredContent"]["rows"] == [{"name": "Ada"}, {"name": "Grace"}]


def test_new_era_tool_refusal_is_still_an_is_error_result(team_db):
    result = modern(McpServer(team_db, read_only=True), 4, "tools/call", name="read_cypher",
                    arguments={"statement": "CREATE (:X)"})["result"]
    assert result == {"content": [{"text": "Only MATCH queries are allowed for read-query", "type": "text"}],
                      "isError": True, "resultType": "complete"}


def test_legacy_answers_are_the_reference_bytes(team_db):
    server = McpServer(team_db)
    assert server.handle_line(line(1, "ping")) == '{"jsonrpc":"2.0","id":1,"result":{}}'
    listed = json.loads(server.handle_line(line(2, "tools/list")))["result"]
    assert listed == {"tools": tool_list(False)}
    call = json.loads(server.handle_line(line(3, "tools/call", {"name": "get_schema", "arguments": {}})))["result"]
    assert set(call) == {"content", "isError"}
    init = json.loads(server.handle_line(line(4, "initialize", {"protocolVersion": "2025-06-18", "_meta": META})))
    assert init["result"]["protocolVersion"] == "2025-06-18"  # initialize is legacy whatever its _meta says
    assert "resultType" not in init["result"]


def test_legacy_structured_content_is_opt_in(team_db):
    plain = McpServer(team_db)
    opted = McpServer(team_db, structured_content=True)
    body = line(1, "tools/call", {"name": "read_cypher", "arguments": {"statement": "RETURN 1 AS one"}})
    assert "structuredContent" not in json.loads(plain.handle_line(body))["result"]
    result = json.loads(opted.handle_line(body))["result"]
    assert result["structuredContent"]["rows"] == [{"one": 1}]
    assert "resultType" not in result


def test_an_unsupported_version_names_what_is_served(team_db):
    server = McpServer(team_db)
    reply = server.handle_line(line(5, "tools/list", {"_meta": {V: "2099-01-01"}}))
    assert reply == ('{"jsonrpc":"2.0","id":5,"error":{"code":-32022,"message":"Unsupported protocol version",'
                     '"data":{"requested":"2099-01-01","supported":["2024-11-05","2025-03-26","2025-06-18",'
                     '"2025-11-25","2026-07-28"]}}}')
    # a handshake version cannot ride in _meta: those are negotiated by initialize
    reply = json.loads(server.handle_line(line(6, "tools/list", {"_meta": {V: "2025-11-25"}})))
    assert reply["error"]["code"] == -32022
    reply = json.loads(server.handle_line(line(7, "tools/list", {"_meta": {V: 20260728}})))
    assert reply["error"]["code"] == -32602


def test_new_era_unknown_method_and_bad_call(team_db):
    server = McpServer(team_db)
    assert modern(server, 8, "resources/list")["error"] == {"code": -32601,
                                                            "message": "Method not found: resources/list"}
    assert modern(server, 9, "tools/call")["error"]["code"] == -32602


def test_graph_tools_in_the_new_era(team_db):
    from relate.protocols.tool_groups import parse_tools
    server = McpServer(team_db, tools=parse_tools("all"))
    result = modern(server, 10, "tools/call", name="cypher_query",
                    arguments={"query": "MATCH (p:Person) RETURN count(p) AS n"})["result"]
    assert result["structuredContent"]["rows"] == [[3]] == json.loads(result["content"][0]["text"])["rows"]
    assert result["resultType"] == "complete"
