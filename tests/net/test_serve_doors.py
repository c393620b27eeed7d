"""`relate serve` with several listeners in one process (`--mcp PORT`, `--bolt`, `--http`) as an
operator starts it: the flag checks, one credential (the generated token too) for every door,
the stderr lines, a taken port among several, one connection limit across the doors, and a
clean stop."""
from __future__ import annotations

import re
import signal
import socket
import time

import pytest

from tests.net.query_server import QueryServed, auth_header, call
from tests.net.server import basic, closed_without_reply, post, rpc, run_serve

JSON = {"Content-Type": "application/json"}
TOKEN_LINE = re.compile(r"^auth: generated token for user relate: (\S+)$", re.M)


@pytest.mark.parametrize("argv, message", [
    (["--http", "x"], "Error: serve --http takes a port number, got 'x'"),
    (["--http", "70000"], "Error: serve --http takes a port number, got '70000'"),
    (["--mcp", "stdio", "--http", "0"], "Error: serve --mcp stdio cannot be combined with --bolt or --http"),
    (["--mcp", "stdio", "--bolt", "0"], "Error: serve --mcp stdio cannot be combined with --bolt or --http"),
    (["--mcp", "0", "--origin", "https://a.example"],
     "Error: serve --origin applies to the Query API and Bolt: add --http PORT or --bolt PORT"),
    (["--http", "0", "--origin", "https://a.example/path"], "Error: serve --origin takes an origin such as"),
    (["--http", "0", "--origin", "ftp://a.example"], "Error: serve --origin takes an origin such as"),
    (["--http", "0", "--tx-timeout-secs", "0"], "Error: --tx-timeout-secs takes a whole number, 1 to 86400"),
])
def test_usage_errors(tmp_path, argv, message):
    proc = run_serve(argv, tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith(message), proc.stderr


def test_one_generated_token_opens_every_door(tmp_path):
    neo4j = pytest.importorskip("neo4j")
    s = QueryServed(["--database", "./g.rl", "--mcp", "0", "--bolt", "0", "--http", "0"], tmp_path)
    try:
        s.wait_listening()
        out = s.stderr.splitlines()
        assert out[0].startswith("auth: generated token for user relate: ")
        assert out[1] == "auth: persisted at ./g.rl.auth-token (reused on restart)"
        assert [re.sub(r":\d+ ", ":PORT ", line) for line in out[2:]] == [
            "serve: MCP (streamable HTTP) listening on http://127.0.0.1:PORT (auth: basic)",
            "serve: Bolt listening on bolt://127.0.0.1:PORT (auth: basic)",
            "serve: Query API (HTTP) listening on http://127.0.0.1:PORT (auth: basic)"]
        token = TOKEN_LINE.search(s.stderr).group(1)
        ports = s.ports()
        assert post(ports["mcp"], rpc(1, "ping"), {**JSON, "Authorization": basic("relate", token)}).status == 200
        assert post(ports["mcp"], rpc(1, "ping"), {**JSON, "Authorization": basic("relate", "x")}).status == 401
        with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{ports['bolt']}", auth=("relate", token)) as d:
            assert d.execute_query("RETURN 1 AS n")[0][0]["n"] == 1
        status, body, _ = call(ports["http"], "POST", "/db/neo4j/query/v2", {"statement": "RETURN 2 AS n"},
                               auth=auth_header("relate", token))
        assert (status, body["data"]["values"]) == (202, [[2]])
        assert call(ports["http"], "POST", "/db/neo4j/query/v2", {"statement": "RETURN 2"},
                    auth=auth_header("relate", "x"))[0] == 401
        assert s.stop(signal.SIGINT, timeout=15) == 0
        assert s.stderr.splitlines()[-1] == "serve: SIGINT received, shutting down"
    finally:
        s.kill()


def test_a_taken_port_among_several_exits_1_before_any_credential(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = run_serve(["--mcp", "0", "--bolt", "0", "--http", str(port), "--database", "./g.rl"], tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == f"Error: serve --http {port}: cannot bind 127.0.0.1:{port}: Address already in use\n"
    assert not (tmp_path / "g.rl.auth-token").exists()


def test_the_connection_limit_counts_every_door(tmp_path):
    s = QueryServed(["--auth", "u:p", "--mcp", "0", "--http", "0", "--max-connections", "2"], tmp_path)
    try:
        s.wait_listening()
        ports = s.ports()
        held = []
        for port in (ports["mcp"], ports["http"]):  # two trusted keep-alive connections fill the limit
            c = socket.create_connection(("127.0.0.1", port), timeout=10)
            path, body = (("/mcp", rpc(1, "ping")) if port == ports["mcp"] else
                          ("/db/neo4j/query/v2", b'{"statement": "RETURN 1"}'))
            c.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: {basic('u', 'p')}\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
            assert c.recv(65536).startswith(b"HTTP/1.1 20")
            held.append(c)
        time.sleep(0.2)
        third = socket.create_connection(("127.0.0.1", ports["http"]), timeout=10)
        third.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert closed_without_reply(third, 10)  # over the limit: accepted and closed at once
        third.close()
        for c in held:
            c.close()
    finally:
        s.stop()
