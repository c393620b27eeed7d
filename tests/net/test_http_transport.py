"""`relate serve --mcp PORT` on the wire: every row of the reference page's HTTP status table and
limits table, the order of the checks, keep-alive, `Expect: 100-continue`, and what real clients
send besides the JSON-RPC body."""
from __future__ import annotations

import http.client
import json
import time

import pytest

from tests.net.server import (basic, closed_without_reply, connect, post, read_reply, request_bytes, rpc, start,
                              tool_call)

AUTH = basic("u", "p")
JSON = {"Content-Type": "application/json", "Authorization": AUTH}
SIMPLE = ("the request content type is browser-\"simple\" — a cross-origin form cannot send a non-simple type "
          "without a preflight")
MIB16 = 16 * 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = start(["--mcp", "0", "--database", ":memory:", "--auth", "u:p"], tmp_path_factory.mktemp("http"))
    yield s
    assert s.stop() == 0


def test_a_call_is_answered_with_200_and_the_core_reply(server):
    r = post(server.port, tool_call(1, "read_cypher", statement="RETURN 1 AS one"), JSON)
    assert r.status == 200 and r.headers["content-type"] == "application/json"
    reply = r.json()
    assert reply["id"] == 1 and reply["result"]["isError"] is False
    assert json.loads(reply["result"]["content"][0]["text"])["rows"] == [{"one": 1}]


def test_no_session_is_issued_and_a_client_session_id_is_ignored(server):
    r = post(server.port, rpc(1, "initialize", {"protocolVersion": "2025-06-18"}), JSON)
    assert "mcp-session-id" not in r.headers
    r = post(server.port, rpc(2, "ping"), {**JSON, "Mcp-Session-Id": "abc", "MCP-Protocol-Version": "2025-06-18"})
    assert r.status == 200 and r.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}


def test_notification_gets_202_with_an_empty_body(server):
    r = post(server.port, rpc(None, "notifications/initialized"), JSON)
    assert (r.status, r.body, r.headers["content-length"]) == (202, b"", "0")


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "HEAD"])
def test_other_methods_get_405_with_allow_post(server, method):
    with connect(server.port) as s:
        s.sendall(request_bytes(method=method, headers={"Authorization": AUTH}))
        if method == "HEAD":
            s.settimeout(30)
            head = s.recv(65536)
            assert head.startswith(b"HTTP/1.1 405") and b"Allow: POST" in head
            return
        r = read_reply(s)
    assert r.status == 405 and r.headers["allow"] == "POST"
    assert r.json() == {"error": "streamable HTTP MCP is POST-only"}


@pytest.mark.parametrize("ctype", [None, "text/plain", "text/plain; charset=utf-8",
                                   "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
def test_browser_simple_content_types_get_415(server, ctype):
    headers = {"Authorization": AUTH} | ({"Content-Type": ctype} if ctype else {})
    r = post(server.port, rpc(1, "ping"), headers)
    assert r.status == 415 and r.json() == {"error": SIMPLE}


@pytest.mark.parametrize("origin", ["https://evil.example", "http://localhost.evil.example", "null",
                                    "http://127.0.0.2:8000", "file://"])
def test_a_non_loopback_origin_gets_403(server, origin):
    r = post(server.port, rpc(1, "ping"), {**JSON, "Origin": origin})
    assert r.status == 403 and r.json() == {"error": "origin is not allowed"}


@pytest.mark.parametrize("origin", ["http://localhost", "http://localhost:5173", "https://127.0.0.1:8443",
                                    "http://[::1]:3000", "http://LOCALHOST"])
def test_a_loopback_origin_is_served_without_cors_headers(server, origin):
    r = post(server.port, rpc(1, "ping"), {**JSON, "Origin": origin})
    assert r.status == 200
    assert not any(h.startswith("access-control-") for h in r.headers)


@pytest.mark.parametrize("auth", [None, basic("u", "wrong"), basic("x", "p"), "Bearer abc", "Basic !!!"])
def test_a_missing_or_wrong_credential_gets_401_after_a_second(server, auth):
    headers = {"Content-Type": "application/json"} | ({"Authorization": auth} if auth else {})
    t0 = time.monotonic()
    r = post(server.port, rpc(1, "ping"), headers)
    assert time.monotonic() - t0 >= 0.9
    assert r.status == 401 and r.headers["www-authenticate"] == 'Basic realm="relate"'
    assert r.json() == {"error": "authentication required"}


def test_http_1_0_gets_400(server):
    r = post(server.port, rpc(1, "ping"), JSON, version="1.0")
    assert r.status == 400
    assert r.json() == {"error": "unsupported HTTP version HTTP/1.0: this surface answers HTTP/1.1"}


def test_a_declared_body_over_16_mib_gets_400_before_it_is_sent(server):
    with connect(server.port) as s:
        s.sendall(request_bytes(headers={**JSON, "Content-Length": str(MIB16 + 1)}))
        r = read_reply(s)
    assert r.status == 400 and r.json() == {"error": "malformed request: body too large"}


def test_a_chunked_body_growing_over_16_mib_gets_400(server):
    chunk = b"x" * (1024 * 1024)
    with connect(server.port) as s:
        s.sendall(request_bytes(headers={**JSON, "Transfer-Encoding": "chunked"}))
        try:
            for _ in range(17):
                s.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and stopped reading
        r = read_reply(s)
    assert r.status == 400 and r.json() == {"error": "malformed request: body too large"}


def test_a_body_of_exactly_16_mib_is_read(server):
    # a JSON string padded with spaces up to the cap: read in full, then answered by the core
    msg = rpc(7, "ping")
    body = msg + b" " * (MIB16 - len(msg))
    r = post(server.port, body, JSON)
    assert r.status == 200 and r.json()["id"] == 7


def test_one_statement_per_call(server):
    r = post(server.port, tool_call(1, "read_cypher", statement="RETURN 1 AS a; RETURN 2 AS b"), JSON)
    result = r.json()["result"]
    assert r.status == 200 and result["isError"] is True
    assert result["content"][0]["text"].startswith("Error: syntax error: ")


# ------------------------------------------------------------------ the order of the checks

def test_origin_and_content_type_are_checked_before_the_credential(server):
    t0 = time.monotonic()
    assert post(server.port, rpc(1, "ping"), {"Origin": "https://evil.example",
                                              "Content-Type": "application/json"}).status == 403
    assert post(server.port, rpc(1, "ping"), {"Content-Type": "text/plain"}).status == 415
    evil = {"Origin": "https://evil.example", "Content-Type": "text/plain"}
    assert post(server.port, rpc(1, "ping"), evil).status == 403
    with connect(server.port) as s:  # a GET probe never sees a 401
        s.sendall(request_bytes(method="GET"))
        assert read_reply(s).status == 405
    assert time.monotonic() - t0 < 0.9  # none of them waited for the credential delay


def test_the_credential_is_checked_before_the_body_is_read(server):
    # without a credential, an oversized body is never looked at: 401, not 400
    with connect(server.port) as s:
        s.sendall(request_bytes(headers={"Content-Type": "application/json", "Content-Length": str(MIB16 + 1)}))
        assert read_reply(s).status == 401
    # a client waiting for `100 Continue` gets the 401 instead, and never sends its body
    with connect(server.port) as s:
        s.sendall(request_bytes(headers={"Content-Type": "application/json", "Content-Length": "20",
                                         "Expect": "100-continue"}))
        assert read_reply(s).status == 401


# ------------------------------------------------------------------ JSON-RPC over HTTP

def test_an_error_without_the_request_id_gets_400(server):
    r = post(server.port, b"not json", JSON)
    assert r.status == 400 and r.json()["id"] is None and r.json()["error"]["code"] == -32700
    r = post(server.port, b"[" + rpc(1, "ping") + b"]", JSON)  # one message per request: no batches
    assert r.status == 400 and r.json()["error"]["code"] == -32700
    r = post(server.port, b'{"jsonrpc":"1.0","id":4,"method":"ping"}', JSON)
    assert r.status == 400 and r.json()["error"]["code"] == -32600


def test_errors_that_carry_the_id_get_200(server):
    # a legacy request (the 2026-07-28 one gets the revision's statuses: tests/net/test_mcp_era_http.py)
    r = post(server.port, rpc(3, "resources/list", {"_meta": {}}), {**JSON, "MCP-Protocol-Version": "2025-11-25"})
    assert r.status == 200
    assert r.json() == {"jsonrpc": "2.0", "id": 3,
                        "error": {"code": -32601, "message": "Method not found: resources/list"}}


def test_params_meta_and_protocol_version_header_do_not_break_a_call(server):
    body = rpc(5, "tools/call", {"_meta": {"progressToken": 1}, "name": "read_cypher",
                                 "arguments": {"statement": "RETURN 2 AS two"}})
    r = post(server.port, body, {**JSON, "MCP-Protocol-Version": "2025-11-25",
                                 "Accept": "application/json, text/event-stream"})
    assert json.loads(r.json()["result"]["content"][0]["text"])["rows"] == [{"two": 2}]
    r = post(server.port, rpc(6, "tools/list", {"_meta": {}}), JSON)
    assert [t["name"] for t in r.json()["result"]["tools"]] == ["write_cypher", "read_cypher", "get_schema"]


def test_connections_are_kept_alive(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        for i in range(5):
            conn.request("POST", "/mcp", body=rpc(i, "ping"), headers=JSON)
            resp = conn.getresponse()
            assert resp.status == 200 and json.loads(resp.read())["id"] == i
            assert resp.getheader("Connection") is None
        conn.request("GET", "/mcp")  # a refusal without a body keeps the connection too
        resp = conn.getresponse()
        assert resp.status == 405
        resp.read()
        conn.request("POST", "/mcp", body=rpc(9, "ping"), headers=JSON)
        assert json.loads(conn.getresponse().read())["id"] == 9
    finally:
        conn.close()


def test_expect_100_continue(server):
    body = tool_call(1, "read_cypher", statement="RETURN 'x' AS pad, '" + "y" * 2000 + "' AS big")
    with connect(server.port) as s:
        s.sendall(request_bytes(headers={**JSON, "Content-Length": str(len(body)), "Expect": "100-continue"}))
        first = read_reply(s)
        assert first.status == 100
        s.sendall(body)
        r = read_reply(s)
    assert r.status == 200 and r.json()["result"]["isError"] is False


def test_a_malformed_request_line_gets_400_and_a_close(server):
    with connect(server.port) as s:
        s.sendall(b"NONSENSE\r\n\r\n")
        r = read_reply(s)
        assert r.status == 400 and r.json()["error"].startswith("malformed request: ")
        assert closed_without_reply(s, 5)


# ------------------------------------------------------------------ deadlines and the connection limit

def test_header_deadline_drops_a_slow_client_without_a_reply(tmp_path):
    s = start(["--mcp", "0", "--auth", "none", "--header-deadline-secs", "1"], tmp_path)
    try:
        with connect(s.port) as c:
            c.sendall(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")  # the header block never ends
            assert closed_without_reply(c, 5)
        with connect(s.port) as c:  # an idle keep-alive connection is dropped the same way
            c.sendall(request_bytes(body=rpc(1, "ping"), headers={"Content-Type": "application/json"}))
            assert read_reply(c).status == 200
            assert closed_without_reply(c, 5)
    finally:
        assert s.stop() == 0


def test_header_deadline_zero_turns_it_off(tmp_path):
    s = start(["--mcp", "0", "--auth", "none", "--header-deadline-secs", "0"], tmp_path)
    try:
        with connect(s.port) as c:
            c.sendall(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
            assert not closed_without_reply(c, 1.5)
            body = rpc(1, "ping")
            c.sendall(f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
            assert read_reply(c).status == 200
    finally:
        assert s.stop() == 0


def test_body_deadline_drops_a_slow_body_without_a_reply(tmp_path):
    s = start(["--mcp", "0", "--auth", "none", "--body-deadline-secs", "1"], tmp_path)
    try:
        with connect(s.port) as c:
            c.sendall(request_bytes(headers={"Content-Type": "application/json", "Content-Length": "100"}) + b"{")
            assert closed_without_reply(c, 5)
    finally:
        assert s.stop() == 0


def test_connections_over_the_limit_are_accepted_then_closed(tmp_path):
    s = start(["--mcp", "0", "--auth", "none", "--max-connections", "2"], tmp_path)
    try:
        held = [connect(s.port), connect(s.port)]
        for c in held:  # both are served
            c.sendall(request_bytes(body=rpc(1, "ping"), headers={"Content-Type": "application/json"}))
            assert read_reply(c).status == 200
        with connect(s.port) as extra:
            assert closed_without_reply(extra, 5)
        held.pop().close()
        deadline = time.monotonic() + 5
        while True:  # the freed slot is taken by the next connection
            try:
                with connect(s.port) as c:
                    c.sendall(request_bytes(body=rpc(2, "ping"), headers={"Content-Type": "application/json"}))
                    r = read_reply(c)
            except (ConnectionResetError, BrokenPipeError):
                r = None  # the server had not yet seen the slot free and closed this one; try again
            if r is not None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert r is not None and r.status == 200
        held[0].close()
    finally:
        assert s.stop() == 0


def test_a_kept_alive_client_survives_a_pause_longer_than_the_header_deadline(tmp_path):
    import httpx2
    s = start(["--mcp", "0", "--auth", "u:p", "--header-deadline-secs", "1"], tmp_path)
    try:
        with httpx2.Client(auth=httpx2.BasicAuth("u", "p"), timeout=30) as client:
            for i in range(2):
                r = client.post(f"http://127.0.0.1:{s.port}/mcp", content=rpc(i, "ping"),
                                headers={"Content-Type": "application/json"})
                assert r.status_code == 200 and r.json()["id"] == i
                time.sleep(1.5)  # the server drops the idle connection; the client opens a new one
    finally:
        assert s.stop() == 0
