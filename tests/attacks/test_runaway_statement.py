"""A runaway statement against `relate serve`, as a hostile (or careless) client sends it: one
`MATCH p=()-[*1..12]->()` on a small dense graph runs for hours.

While it runs, `ping`, `tools/list`, `initialize` and notifications on other connections are
answered at once; closing the runaway's connection stops it (nothing written, the engine free for
the next caller); SIGTERM/SIGINT stop it, answer it with a typed error and exit 0 within 2 s; the
opt-in `--call-timeout-secs` budget stops it with the timeout tool error, on stdio and HTTP; and
without the flag no budget stops it (the reference's "no per-call timeout").

(Issue 14.  Before: one lock around the whole protocol core, so `ping` waited behind the
statement; a closed connection was noticed only when the reply was written; SIGTERM waited for
the statement to end.)
"""
from __future__ import annotations

import json
import signal
import socket
import subprocess
import time

import pytest

from tests.net.server import RELATE, connect, post, read_reply, request_bytes, rpc, start, tool_call

JSON = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
# six nodes, every ordered pair joined: paths of up to 12 relationships number in the billions
SEED = ("UNWIND range(1, 6) AS i CREATE (:N {i: i}) WITH count(*) AS made "
        "MATCH (a:N), (b:N) WHERE a <> b CREATE (a)-[:R]->(b)")
RUNAWAY_READ = "MATCH p=()-[*1..12]->() RETURN count(p) AS paths"
# would write one node if it ever finished
RUNAWAY_WRITE = "MATCH p=()-[*1..12]->() WITH count(p) AS paths CREATE (:Mark {paths: paths})"
PROMPT = 5.0  # a generous bound for an answer that takes milliseconds on an idle machine
TIMEOUT_TEXT = "Error: timeout: the statement ran longer than 1s and was stopped; the graph is unchanged"
STOPPING_TEXT = "Error: cancelled: the server is shutting down; the statement was stopped and the graph is unchanged"


def _stop(server, sig: int = signal.SIGTERM) -> int:
    """Stop a server; one that does not stop within 30 s is killed (and the test fails)."""
    try:
        return server.stop(sig, timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        raise


def _text(reply: dict) -> str:
    return reply["result"]["content"][0]["text"]


def _seeded(tmp_path, *flags: str):
    server = start(["--mcp", "0", "--database", ":memory:", "--auth", "none", *flags], tmp_path)
    r = post(server.port, tool_call(1, "write_cypher", statement=SEED), JSON)
    assert r.json()["result"]["isError"] is False, r.body
    return server


def _send_runaway(port: int, statement: str = RUNAWAY_WRITE, tool: str = "write_cypher") -> socket.socket:
    """The runaway call on its own connection, left unanswered; returns once it is running."""
    s = connect(port)
    s.sendall(request_bytes(body=tool_call(99, tool, statement=statement), headers=JSON))
    s.settimeout(0.5)
    try:
        got = s.recv(65536)
    except TimeoutError:
        got = None
    assert got is None, f"the runaway was answered at once: {got!r}"
    return s


def _timed_post(port: int, body: bytes) -> tuple[float, object]:
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=PROMPT * 3) as s:
        s.sendall(request_bytes(body=body, headers=JSON))
        try:
            reply = read_reply(s)
        except TimeoutError:
            return time.monotonic() - t0, None
    return time.monotonic() - t0, reply


def test_engine_free_methods_answer_while_a_runaway_holds_the_engine(tmp_path):
    server = _seeded(tmp_path)
    try:
        started = time.monotonic()
        runaway = _send_runaway(server.port)
        checks = [
            (rpc(2, "ping"), lambda r: r.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}),
            (rpc(3, "tools/list"), lambda r: [t["name"] for t in r.json()["result"]["tools"]]
             == ["write_cypher", "read_cypher", "get_schema"]),
            (rpc(4, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "attack", "version": "1"}}),
             lambda r: r.json()["result"]["protocolVersion"] == "2025-06-18"),
            (rpc(None, "notifications/initialized"), lambda r: r.status == 202 and r.body == b""),
            (rpc(5, "no/such/method"), lambda r: r.json()["error"]["code"] == -32601),
            (b"{not json", lambda r: r.status == 400 and r.json()["error"]["code"] == -32700),
        ]
        for _ in range(3):
            for body, ok in checks:
                elapsed, reply = _timed_post(server.port, body)
                assert reply is not None and elapsed < PROMPT, (body, elapsed)
                assert ok(reply), (body, reply.status, reply.body)
        # without --call-timeout-secs nothing stops it: still running, unanswered
        time.sleep(max(0.0, 3.0 - (time.monotonic() - started)))
        runaway.settimeout(0.2)
        with pytest.raises(TimeoutError):
            runaway.recv(65536)
        runaway.close()
    finally:
        assert _stop(server) == 0


def test_closing_the_connection_stops_the_statement_and_frees_the_engine(tmp_path):
    server = _seeded(tmp_path)
    try:
        _send_runaway(server.port).close()
        t0 = time.monotonic()
        r = post(server.port, tool_call(6, "write_cypher", statement="CREATE (:After)"), JSON)
        assert time.monotonic() - t0 < PROMPT
        assert r.json()["result"]["isError"] is False
        r = post(server.port, tool_call(7, "read_cypher",
                                        statement="MATCH (m:Mark) WITH count(m) AS marks "
                                                  "MATCH (a:After) RETURN marks, count(a) AS after"), JSON)
        assert json.loads(_text(r.json()))["rows"] == [{"after": 1, "marks": 0}]
        # a client gone while a second call waited for the engine does not run that call either
        first = _send_runaway(server.port)
        second = _send_runaway(server.port)
        second.close()
        first.close()
        r = post(server.port, tool_call(8, "read_cypher", statement="MATCH (m:Mark) RETURN count(m) AS marks"),
                 JSON)
        assert json.loads(_text(r.json()))["rows"] == [{"marks": 0}]
    finally:
        assert _stop(server) == 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_statement_and_exits_0_within_2_seconds(tmp_path, sig):
    server = _seeded(tmp_path)
    runaway = _send_runaway(server.port)
    waiting = _send_runaway(server.port, RUNAWAY_READ, "read_cypher")  # queued behind it
    t0 = time.monotonic()
    code = _stop(server, sig)
    elapsed = time.monotonic() - t0
    assert code == 0 and elapsed < 2.0, (code, elapsed, server.stderr)
    assert f"serve: {sig.name} received, shutting down" in server.stderr
    for s in (runaway, waiting):
        s.settimeout(5)
        reply = read_reply(s)
        assert reply is not None and reply.status == 200 and reply.headers["connection"] == "close"
        assert reply.json()["result"] == {"content": [{"text": STOPPING_TEXT, "type": "text"}], "isError": True}
        s.close()


def test_the_stdio_server_exits_promptly_on_sigterm_mid_statement(tmp_path):
    proc = subprocess.Popen([RELATE, "serve", "--mcp", "stdio", "--database", ":memory:"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(tool_call(1, "write_cypher", statement=SEED) + b"\n")
        proc.stdin.write(tool_call(2, "read_cypher", statement=RUNAWAY_READ) + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["result"]["isError"] is False
        time.sleep(0.5)
        assert proc.poll() is None
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        assert time.monotonic() - t0 < 2.0
        assert proc.returncode == 0
        # the call in flight is answered (stopped), then the shutdown line names the signal
        reply = json.loads(proc.stdout.readline())
        assert reply["id"] == 2
        assert reply["result"] == {"content": [{"text": STOPPING_TEXT, "type": "text"}], "isError": True}
        err = proc.stderr.read().decode()
        assert err.splitlines()[-1] == "serve: SIGTERM received, shutting down" and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_stdio_server_stops_cleanly_on_a_signal_while_idle(tmp_path, sig):
    store = str(tmp_path / "s.rl")
    proc = subprocess.Popen([RELATE, "serve", "--mcp", "stdio", "--database", store], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(tool_call(1, "write_cypher", statement="CREATE (:Kept)") + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["result"]["isError"] is False
        proc.send_signal(sig)
        assert proc.wait(30) == 0
        err = proc.stderr.read().decode()
        assert err.splitlines()[-1] == f"serve: {sig.name} received, shutting down" and "Traceback" not in err
        assert proc.stdout.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    # the store was closed properly: a writer opens it at once and sees the write
    import relate
    with relate.connect(store) as db:
        assert db.execute("MATCH (k:Kept) RETURN count(k) AS c").rows == [(1,)]


def test_the_budget_flag_stops_the_statement_over_http(tmp_path):
    server = _seeded(tmp_path, "--call-timeout-secs", "1")
    try:
        for statement, tool in ((RUNAWAY_READ, "read_cypher"), (RUNAWAY_WRITE, "write_cypher")):
            t0 = time.monotonic()
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
                s.sendall(request_bytes(body=tool_call(9, tool, statement=statement), headers=JSON))
                reply = read_reply(s)
            assert time.monotonic() - t0 < 1 + PROMPT
            assert reply.json()["result"] == {"content": [{"text": TIMEOUT_TEXT, "type": "text"}], "isError": True}
        # a call within the budget still answers, and the stopped write wrote nothing
        r = post(server.port, tool_call(10, "read_cypher", statement="MATCH (m:Mark) RETURN count(m) AS marks"), JSON)
        assert json.loads(_text(r.json()))["rows"] == [{"marks": 0}]
    finally:
        assert _stop(server) == 0


def test_the_budget_flag_stops_the_statement_on_stdio():
    requests = [tool_call(1, "write_cypher", statement=SEED), tool_call(2, "read_cypher", statement=RUNAWAY_READ),
                tool_call(3, "write_cypher", statement=RUNAWAY_WRITE), rpc(4, "ping"),
                tool_call(5, "read_cypher", statement="MATCH (m:Mark) RETURN count(m) AS marks")]
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--call-timeout-secs", "1"],
                          input=b"\n".join(requests) + b"\n", capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3, 4, 5]
    for r in replies[1:3]:
        assert r["result"] == {"content": [{"text": TIMEOUT_TEXT, "type": "text"}], "isError": True}
    assert json.loads(_text(replies[4]))["rows"] == [{"marks": 0}]


@pytest.mark.parametrize("value", ["-1", "1.5", "x", "86401"])
def test_the_budget_flag_takes_whole_seconds(value):
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--call-timeout-secs", value],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"Error: --call-timeout-secs takes a whole number, 0 to 86400; got {value!r}")
