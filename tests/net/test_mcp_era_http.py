"""Raw requests of the 2026-07-28 shape against real `relate serve` processes: over HTTP every
header check with its status and JSON-RPC code, over stdio the same bodies without headers, and
legacy requests beside them answered as before."""
from __future__ import annotations

import json
import subprocess

import pytest

from tests.net.server import RELATE, basic, connect, post, read_reply, request_bytes, rpc, start

AUTH = basic("u", "p")
JSON = {"Content-Type": "application/json", "Authorization": AUTH}
V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}}
SUPPORTED = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = start(["--mcp", "0", "--database", ":memory:", "--auth", "u:p"], tmp_path_factory.mktemp("era"))
    yield s
    assert s.stop() == 0


def headers(method: str, name: str | None = None, version: str | None = V) -> dict:
    h = {**JSON, "Mcp-Method": method}
    if version is not None:
        h["MCP-Protocol-Version"] = version
    if name is not None:
        h["Mcp-Name"] = name
    return h


def modern_body(id_, method, **params) -> bytes:
    return rpc(id_, method, {"_meta": META, **params})


def read_call(statement: str) -> dict:
    return {"name": "read_cypher", "arguments": {"statement": statement}}


def test_discover_list_and_call(server):
    r = post(server.port, modern_body(1, "server/discover"), headers("server/discover"))
    assert r.status == 200 and r.json()["result"]["supportedVersions"] == [V]
    r = post(server.port, modern_body(2, "tools/list"), headers("tools/list"))
    result = r.json()["result"]
    assert r.status == 200 and [t["name"] for t in result["tools"]] == ["write_cypher", "read_cypher", "get_schema"]
    assert (result["resultType"], result["cacheScope"], result["ttlMs"]) == ("complete", "public", 300000)
    r = post(server.port, modern_body(3, "tools/call", **read_call("RETURN 1 AS one")),
             headers("tools/call", "read_cypher"))
    result = r.json()["result"]
    assert r.status == 200 and result["structuredContent"]["rows"] == [{"one": 1}]
    assert result["resultType"] == "complete"


def test_a_base64_mcp_name_is_read(server):
    r = post(server.port, modern_body(4, "tools/call", **read_call("RETURN 2 AS two")),
             headers("tools/call", "=?base64?cmVhZF9jeXBoZXI=?="))
    assert r.status == 200 and r.json()["result"]["structuredContent"]["rows"] == [{"two": 2}]


def mismatch(r, message: str, id_=5) -> None:
    assert r.status == 400
    assert r.json() == {"jsonrpc": "2.0", "id": id_, "error": {"code": -32020, "message": message}}


def test_header_mismatches_are_400_with_32020(server):
    call = modern_body(5, "tools/call", **read_call("RETURN 1"))
    mismatch(post(server.port, call, headers("tools/call", "read_cypher", version=None)),
             "MCP-Protocol-Version header is missing")
    mismatch(post(server.port, call, headers("tools/call", "read_cypher", version="2025-11-25")),
             "MCP-Protocol-Version header does not match the request's _meta protocol version")
    no_method = {k: v for k, v in headers("tools/call", "read_cypher").items() if k != "Mcp-Method"}
    mismatch(post(server.port, call, no_method), "Mcp-Method header is missing")
    mismatch(post(server.port, call, headers("tools/list", "read_cypher")),
             "Mcp-Method header does not match the request's method")
    mismatch(post(server.port, call, headers("tools/call")), "Mcp-Name header is missing")
    mismatch(post(server.port, call, headers("tools/call", "write_cypher")),
             "Mcp-Name header does not match the request's 'name' parameter")
    # a body without the envelope under a new-era header: the header names a version the body does not
    mismatch(post(server.port, rpc(5, "tools/list"), headers("tools/list")),
             "MCP-Protocol-Version header does not match the request's _meta protocol version")


def test_a_routing_header_given_twice_is_a_mismatch(server):
    body = modern_body(6, "tools/list")
    raw = request_bytes(body=body, headers={**headers("tools/list"), "mcp-method": "tools/list"})
    # request_bytes writes a dict: add the second copy by hand
    raw = raw.replace(b"mcp-method: tools/list\r\n", b"Mcp-Method: tools/list\r\n", 1)
    assert raw.count(b"tools/list\r\n") == 2
    with connect(server.port) as s:
        s.sendall(raw)
        r = read_reply(s)
    mismatch(r, "Mcp-Method header appears more than once", id_=6)


def test_an_unsupported_version_is_400_with_32022_and_the_supported_list(server):
    r = post(server.port, modern_body(7, "tools/list"), headers("tools/list", version="2099-01-01"))
    assert r.status == 400
    assert r.json()["error"] == {"code": -32022, "message": "Unsupported protocol version",
                                 "data": {"requested": "2099-01-01", "supported": SUPPORTED}}
    # in the body alone, header and body agreeing on a version nobody serves
    body = rpc(8, "tools/list", {"_meta": {**META, "io.modelcontextprotocol/protocolVersion": "2025-11-25"}})
    r = post(server.port, body, headers("tools/list", version="2025-11-25"))
    assert r.status == 400 and r.json()["error"]["code"] == -32022
    # a legacy request whose header names no version at all
    r = post(server.port, rpc(9, "tools/list"), {**JSON, "MCP-Protocol-Version": "1999-01-01"})
    assert r.status == 400 and r.json()["error"]["code"] == -32022 and r.json()["id"] == 9


def test_new_era_errors_take_the_revision_statuses(server):
    r = post(server.port, modern_body(10, "resources/list"), headers("resources/list"))
    assert r.status == 404 and r.json()["error"] == {"code": -32601, "message": "Method not found: resources/list"}
    r = post(server.port, modern_body(11, "tools/call"), headers("tools/call"))
    assert r.status == 400 and r.json()["error"]["code"] == -32602
    # a tool's own refusal is a result, so 200
    r = post(server.port, modern_body(12, "tools/call", **read_call("CREATE (:X)")),
             headers("tools/call", "read_cypher"))
    assert r.status == 200 and r.json()["result"]["isError"] is True
    assert r.json()["result"]["content"][0]["text"] == "Only MATCH queries are allowed for read-query"
    r = post(server.port, modern_body(13, "tools/call", name="read_cypher", arguments={"query": "RETURN 1"}),
             headers("tools/call", "read_cypher"))
    assert r.status == 200 and r.json()["result"]["isError"] is True


def test_a_new_era_notification_is_202(server):
    r = post(server.port, rpc(None, "notifications/cancelled", {"_meta": META}), headers("notifications/cancelled"))
    assert r.status == 202 and r.body == b""


def test_legacy_requests_are_answered_as_before(server):
    r = post(server.port, rpc(14, "resources/list"), JSON)
    assert r.status == 200 and r.json()["error"]["code"] == -32601
    r = post(server.port, rpc(15, "ping"), {**JSON, "MCP-Protocol-Version": "2025-06-18"})
    assert r.status == 200 and r.body == b'{"jsonrpc":"2.0","id":15,"result":{}}'
    r = post(server.port, rpc(16, "initialize", {"protocolVersion": "2025-11-25"}), JSON)
    assert r.json()["result"]["protocolVersion"] == "2025-11-25" and "resultType" not in r.json()["result"]


def test_stdio_serves_both_eras_on_one_process():
    lines = [
        rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}}),
        rpc(2, "tools/list"),
        modern_body(3, "server/discover"),
        modern_body(4, "tools/list"),
        modern_body(5, "tools/call", **read_call("RETURN 1 AS one")),
        rpc(6, "tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}}),
        modern_body(7, "ping/unknown"),
        rpc(None, "notifications/initialized", {"_meta": META}),
    ]
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio"], input=b"\n".join(lines) + b"\n",
                          capture_output=True, timeout=120)
    replies = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3, 4, 5, 6, 7]
    assert replies[0]["result"]["protocolVersion"] == "2025-06-18"
    assert "resultType" not in replies[1]["result"] and "ttlMs" not in replies[1]["result"]
    assert replies[2]["result"]["supportedVersions"] == [V]
    assert replies[3]["result"]["tools"] == replies[1]["result"]["tools"] and replies[3]["result"]["ttlMs"] == 300000
    assert replies[4]["result"]["structuredContent"]["rows"] == [{"one": 1}]
    assert replies[5]["error"]["code"] == -32022 and replies[5]["error"]["data"]["supported"] == SUPPORTED
    assert replies[6]["error"]["code"] == -32601
