"""`relate serve --mcp PORT` as an operator starts it: credentials and the token file, the stderr
lines, usage errors and exit codes, and a clean stop on SIGINT and SIGTERM."""
from __future__ import annotations

import re
import signal
import socket
import stat
import threading

import pytest

from tests.net.server import basic, connect, post, read_reply, request_bytes, rpc, run_serve, start, tool_call

JSON = {"Content-Type": "application/json"}
TOKEN_LINE = re.compile(r"^auth: generated token for user relate: (\S+)$", re.M)


def lines(text: str) -> list[str]:
    return text.splitlines()


def authorized(port: int, user: str, password: str) -> bool:
    return post(port, rpc(1, "ping"), {**JSON, "Authorization": basic(user, password)}).status == 200


# ------------------------------------------------------------------ credentials

def test_auth_flag(tmp_path):
    s = start(["--mcp", "0", "--auth", "ada:s3cret"], tmp_path)
    try:
        assert authorized(s.port, "ada", "s3cret")
        assert lines(s.stderr) == ["auth: basic (credential from --auth)",
                                   f"serve: MCP (streamable HTTP) listening on http://127.0.0.1:{s.port} (auth: basic)"]
    finally:
        assert s.stop() == 0
    assert not list(tmp_path.glob("*.auth-token"))


def test_relate_auth_variable_and_the_flag_wins(tmp_path):
    s = start(["--mcp", "0"], tmp_path, env={"RELATE_AUTH": "env:pw"})
    try:
        assert authorized(s.port, "env", "pw")
        assert lines(s.stderr)[0] == "auth: basic (credential from RELATE_AUTH)"
    finally:
        s.stop()
    s = start(["--mcp", "0", "--auth", "flag:pw"], tmp_path, env={"RELATE_AUTH": "env:pw"})
    try:
        assert authorized(s.port, "flag", "pw")
        assert post(s.port, rpc(1, "ping"), {**JSON, "Authorization": basic("env", "pw")}).status == 401
    finally:
        s.stop()


def test_auth_none_checks_nothing(tmp_path):
    s = start(["--mcp", "0", "--auth", "none"], tmp_path)
    try:
        assert post(s.port, rpc(1, "ping"), JSON).status == 200
        assert lines(s.stderr)[-1].endswith("(auth: none)")
    finally:
        s.stop()


def test_generated_token_for_a_file_store_is_saved_0600_and_reused(tmp_path):
    s = start(["--mcp", "0", "--database", "./graph.rl"], tmp_path)
    try:
        token = TOKEN_LINE.search(s.stderr).group(1)
        assert lines(s.stderr) == [f"auth: generated token for user relate: {token}",
                                   "auth: persisted at ./graph.rl.auth-token (reused on restart)",
                                   f"serve: MCP (streamable HTTP) listening on http://127.0.0.1:{s.port} (auth: basic)"]
        assert authorized(s.port, "relate", token)
        path = tmp_path / "graph.rl.auth-token"
        assert path.read_text() == f"relate:{token}\n"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        assert s.stop() == 0
    again = start(["--mcp", "0", "--database", "./graph.rl"], tmp_path)
    try:
        assert lines(again.stderr)[0] == "auth: basic (token reused from ./graph.rl.auth-token)"
        assert token not in again.stderr
        assert authorized(again.port, "relate", token)
    finally:
        again.stop()


def test_generated_token_for_a_directory_store_sits_beside_it(tmp_path):
    s = start(["--mcp", "0", "--database", "data/"], tmp_path)
    try:
        assert "auth: persisted at data.auth-token (reused on restart)" in lines(s.stderr)
        user, _, token = (tmp_path / "data.auth-token").read_text().strip().partition(":")
        assert user == "relate" and authorized(s.port, user, token)
    finally:
        s.stop()


def test_memory_store_gets_a_fresh_token_every_start_and_no_file(tmp_path):
    tokens = []
    for _ in range(2):
        s = start(["--mcp", "0", "--database", ":memory:"], tmp_path)
        try:
            token = TOKEN_LINE.search(s.stderr).group(1)
            assert "persisted" not in s.stderr
            assert authorized(s.port, "relate", token)
            tokens.append(token)
        finally:
            s.stop()
    assert tokens[0] != tokens[1]
    assert not list(tmp_path.glob("*auth-token*"))


def test_read_only_store_is_announced_first(tmp_path):
    assert run_serve(["--mcp", "stdio", "--database", "./graph.rl"], tmp_path).returncode == 0  # creates it
    s = start(["--mcp", "0", "--database", "./graph.rl", "--read-only"], tmp_path)
    try:
        out = lines(s.stderr)
        assert out[0] == "serve: store ./graph.rl is open read-only"
        assert out[1].startswith("auth: generated token for user relate: ")
        assert out[-1].startswith("serve: MCP (streamable HTTP) listening on ")
        token = TOKEN_LINE.search(s.stderr).group(1)
        r = post(s.port, rpc(1, "tools/list"), {**JSON, "Authorization": basic("relate", token)})
        assert [t["name"] for t in r.json()["result"]["tools"]] == ["read_cypher", "get_schema"]
    finally:
        s.stop()


# ------------------------------------------------------------------ usage errors and exit codes

@pytest.mark.parametrize("argv, code, message", [
    (["--mcp", "0", "--mcp", "stdio"], 2, "Error: serve --mcp may be given only once"),
    (["--mcp", "stdio", "--auth", "u:p"], 2, "Error: serve --mcp stdio skips auth"),
    (["--mcp", "0", "--auth", "nocolon"], 1, "Error: --auth: expected user:password or 'none'"),
    (["--mcp", "0", "--auth", ":pw"], 1, "Error: --auth: expected user:password with both sides non-empty"),
    (["--mcp", "0", "--auth", "user:"], 1, "Error: --auth: expected user:password with both sides non-empty"),
    (["--mcp", "70000"], 2, "Error: serve --mcp takes stdio or a port number"),
    (["--mcp", "0", "--header-deadline-secs", "86401"], 2, "Error: --header-deadline-secs takes"),
    (["--mcp", "0", "--body-deadline-secs", "-1"], 2, "Error: --body-deadline-secs takes"),
    (["--mcp", "0", "--max-connections", "0"], 2, "Error: --max-connections takes"),
    (["--mcp", "0", "--max-traversal-depth", "2001"], 2, "Error: --max-traversal-depth takes"),
    (["--mcp", "stdio", "--max-traversal-depth", "0"], 2, "Error: --max-traversal-depth takes"),
    (["--mcp", "0", "--expression-memory-limit", "lots"], 2, "Error: --expression-memory-limit takes"),
])
def test_usage_errors(tmp_path, argv, code, message):
    proc = run_serve(argv, tmp_path)
    assert proc.returncode == code
    assert proc.stderr.startswith(message), proc.stderr
    assert proc.stdout == ""


def test_malformed_relate_auth_exits_1(tmp_path):
    proc = run_serve(["--mcp", "0"], tmp_path, env={"RELATE_AUTH": "nocolon"})
    assert (proc.returncode, proc.stderr) == (1, "Error: RELATE_AUTH: expected user:password or 'none'\n")


def test_a_port_in_use_exits_1(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = run_serve(["--mcp", str(port), "--database", "./g.rl"], tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == f"Error: serve --mcp {port}: cannot bind 127.0.0.1:{port}: Address already in use\n"
    assert not (tmp_path / "g.rl.auth-token").exists()  # no credential is made for a server that never ran


def test_host_flag_binds_that_address(tmp_path):
    s = start(["--mcp", "0", "--auth", "none", "--host", "localhost"], tmp_path)
    try:
        assert f"listening on http://localhost:{s.port} (auth: none)" in s.stderr
        assert post(s.port, rpc(1, "ping"), JSON).status == 200
    finally:
        s.stop()


# ------------------------------------------------------------------ stopping

@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_cleanly(tmp_path, sig):
    s = start(["--mcp", "0", "--auth", "none", "--database", "./graph.rl"], tmp_path)
    idle = connect(s.port)  # an idle kept-alive connection does not hold the stop up
    try:
        r = post(s.port, tool_call(1, "write_cypher", statement="CREATE (:Kept {n: 1})"), JSON)
        assert r.json()["result"]["isError"] is False
        assert s.stop(sig, timeout=10) == 0
    finally:
        idle.close()
    assert lines(s.stderr)[-1] == f"serve: {sig.name} received, shutting down"
    out = run_serve(["--mcp", "stdio", "--database", "./graph.rl", "--read-only"], tmp_path)
    assert out.returncode == 0


def test_a_call_in_flight_is_stopped_and_answered_before_the_server_stops(tmp_path):
    # issue 14: a signal stops the running statement (rolled back) rather than waiting for it
    s = start(["--mcp", "0", "--auth", "none"], tmp_path)
    # a few seconds of counting, so the signal surely lands while the call runs
    body = tool_call(1, "read_cypher",
                     statement="UNWIND range(1, 1500) AS x UNWIND range(1, 1500) AS y RETURN count(*) AS n")
    replies = []
    with connect(s.port) as c:
        c.sendall(request_bytes(body=body, headers=JSON))
        reader = threading.Thread(target=lambda: replies.append(read_reply(c)))
        reader.start()
        threading.Event().wait(0.3)  # the request has arrived and the engine is counting
        s.proc.send_signal(signal.SIGTERM)
        reader.join(60)
    assert s.proc.wait(60) == 0
    reply = replies[0]
    assert reply.status == 200 and reply.headers["connection"] == "close"
    assert reply.json()["result"] == {"isError": True, "content": [{"type": "text", "text": (
        "Error: cancelled: the server is shutting down; the statement was stopped and the graph is unchanged")}]}
    s.stop()


def test_safe_depth_and_memory_limits_apply_over_http(tmp_path):
    s = start(["--mcp", "0", "--auth", "none", "--safe", "--max-traversal-depth", "3",
               "--expression-memory-limit", "1KiB"], tmp_path)
    try:
        def text(**arguments):
            tool = arguments.pop("tool", "read_cypher")
            reply = post(s.port, tool_call(1, tool, **arguments), JSON).json()["result"]
            return reply["isError"], reply["content"][0]["text"]

        assert text(tool="write_cypher", statement="CREATE (n)")[1].startswith(
            "Error: syntax error: SafeModeViolation: ")
        assert text(statement="MATCH (n) RETURN n")[1].startswith("Error: syntax error: SafeModeViolation: ")
        assert text(statement="MATCH (n)-[*..4]->(m) RETURN count(*) AS c")[1].startswith(
            "Error: semantic error: TraversalDepthExceeded: ")
        assert text(statement="RETURN range(1, 500) AS xs")[1].startswith(
            "Error: runtime error: ExpressionMemoryLimit: ")
        assert text(statement="MATCH (n)-[*..3]->(m) RETURN count(*) AS c LIMIT 1")[0] is False
    finally:
        s.stop()


def test_relate_auth_comes_from_the_environment_the_cli_is_given():
    import io
    from relate.cli.main import run
    err = io.StringIO()
    code = run(["serve", "--mcp", "0"], env={"RELATE_AUTH": "user:"}, stderr=err)
    assert (code, err.getvalue()) == (1, "Error: RELATE_AUTH: expected user:password with both sides non-empty\n")
