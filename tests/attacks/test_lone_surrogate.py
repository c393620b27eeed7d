"""A lone surrogate (`'\\ud800'` in a Cypher string) against every output, as a hostile client would
send it: each request still gets exactly one answer, every byte written is valid UTF-8, the value
comes back as the JSON escape of itself, and the server keeps serving.

(Issue 14.  Before: `relate serve --mcp stdio` died with UnicodeEncodeError and dropped the
requests queued behind the statement; the CLI died mid-result in every output mode.)
"""
from __future__ import annotations

import json
import subprocess

import pytest

import relate
from tests.net.server import RELATE, post, rpc, start, tool_call

JSON = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
LONE = "a\ud800b\udfff"


def _lines(raw: bytes) -> list[dict]:
    return [json.loads(line) for line in raw.decode("utf-8").splitlines()]  # strict UTF-8


def test_stdio_answers_every_request_and_keeps_the_value(tmp_path):
    requests = [
        rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "attack", "version": "1"}}),
        tool_call(2, "read_cypher", statement="RETURN 'a\\ud800b\\udfff' AS s"),
        tool_call(3, "write_cypher", statement="CREATE (:S {s: 'x\\ud800'})"),
        tool_call(4, "read_cypher", statement="MATCH (n:S) RETURN n.s AS s"),
        rpc(5, "ping"),
    ]
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--database", str(tmp_path / "s.rl")],
                          input=b"\n".join(requests) + b"\n", capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    replies = _lines(proc.stdout)
    assert [r["id"] for r in replies] == [1, 2, 3, 4, 5]
    assert json.loads(replies[1]["result"]["content"][0]["text"])["rows"] == [{"s": LONE}]
    assert replies[2]["result"]["isError"] is False
    assert json.loads(replies[3]["result"]["content"][0]["text"])["rows"] == [{"s": "x\ud800"}]
    assert replies[4]["result"] == {}
    # the stored value survived the commit and reads back after a reopen
    with relate.connect(str(tmp_path / "s.rl")) as db:
        assert db.execute("MATCH (n:S) RETURN n.s").rows == [("x\ud800",)]


def test_http_answers_and_keeps_serving(tmp_path):
    server = start(["--mcp", "0", "--database", ":memory:", "--auth", "none"], tmp_path)
    try:
        r = post(server.port, tool_call(1, "read_cypher", statement="RETURN 'a\\ud800b\\udfff' AS s"), JSON)
        assert r.status == 200
        reply = json.loads(r.body.decode("utf-8"))
        assert json.loads(reply["result"]["content"][0]["text"])["rows"] == [{"s": LONE}]
        assert post(server.port, rpc(2, "ping"), JSON).json() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize("mode, shown", [("jsonl", '{"s":"a\\ud800b\\udfff"}'),
                                         ("envelope", '"a\\ud800b\\udfff"'),
                                         ("table", '"a\\ud800b\\udfff"'),
                                         ("toon", "a\\ud800b\\udfff")])
def test_every_cli_mode_writes_it(mode, shown):
    proc = subprocess.run([RELATE, "--mode", mode, "RETURN 'a\\ud800b\\udfff' AS s"], capture_output=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    assert shown in proc.stdout.decode("utf-8")
