"""An internal failure inside a real `relate serve` process (stdio and HTTP): the caller gets only
`internal error`, in the form its layer answers with, never the detail; the traceback reaches the
operator on stderr and never stdout; and the server keeps serving the requests behind it.

There is no test-only switch in relate to cause a bug: the process is started through a small
wrapper that patches one engine function to raise (with a secret marker in its message) and then
runs the real `relate` entry point.  Three places fail:

- `plain`: `Database.run` raises a plain exception (a bug) -> JSON-RPC `-32603 internal error`;
- `internal`: `Database.run` raises relate's own `Internal` error -> the tool result
  `Error: internal error` (`isError: true`), as the reference words it;
- `decode`: reading the message itself fails -> over stdio a `-32603 internal error` reply with a
  null id (before: the stdio server died and dropped every later request), over HTTP a 500.

(Issue 14: "Internal errors keep their detail out of replies and go to stderr with a traceback.")
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.net.server import LISTENING, connect, post, read_reply, request_bytes, rpc, tool_call

SECRET = "secret-engine-state-4242"
JSON = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

WRAPPER = f'''
import sys
from relate.database import Database
from relate.errors import E
from relate.protocols import jsonrpc

MODE = sys.argv.pop(1)
_run, _decode = Database.run, jsonrpc.decode


def run(self, prepared, *args, **kwargs):
    if "boom" in prepared.text:
        if MODE == "plain":
            raise KeyError("{SECRET}")
        if MODE == "internal":
            raise E.Internal.Internal("{SECRET}")
    return _run(self, prepared, *args, **kwargs)


def decode(line):
    if MODE == "decode" and "boom" in line:
        raise ValueError("{SECRET}")
    return _decode(line)


Database.run, jsonrpc.decode = run, decode
from relate.cli.main import entry

sys.argv[0] = "relate"
entry()
'''

BOOM = tool_call(1, "read_cypher", statement="RETURN 'boom' AS x")
EXCEPTION = {"plain": "KeyError: 'secret-engine-state-4242'",
             "internal": "relate.errors.tree.InternalError: internal error: Internal: secret-engine-state-4242",
             "decode": "ValueError: secret-engine-state-4242"}
STDIO_REPLY = {
    "plain": '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}',
    "internal": ('{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"Error: internal error","type":"text"}],'
                 '"isError":true}}'),
    "decode": '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}',
}


@pytest.fixture
def wrapper(tmp_path) -> Path:
    path = tmp_path / "broken_relate.py"
    path.write_text(WRAPPER)
    return path


def _assert_logged(stderr: str, mode: str) -> None:
    assert "Traceback (most recent call last):\n" in stderr
    assert EXCEPTION[mode] in stderr


@pytest.mark.parametrize("mode", sorted(STDIO_REPLY))
def test_stdio(mode, wrapper, tmp_path):
    lines = [BOOM, rpc(2, "ping"), tool_call(3, "read_cypher", statement="RETURN 1 AS one"), BOOM, rpc(4, "ping")]
    proc = subprocess.run([sys.executable, str(wrapper), mode, "serve", "--mcp", "stdio", "--database",
                           str(tmp_path / "s.rl")], input=b"\n".join(lines) + b"\n", capture_output=True,
                          timeout=60)
    stdout, stderr = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    assert proc.returncode == 0, stderr
    replies = stdout.splitlines()
    assert len(replies) == 5, stdout
    assert replies[0] == replies[3] == STDIO_REPLY[mode]
    assert replies[1] == '{"jsonrpc":"2.0","id":2,"result":{}}'
    assert json.loads(json.loads(replies[2])["result"]["content"][0]["text"])["rows"] == [{"one": 1}]
    assert replies[4] == '{"jsonrpc":"2.0","id":4,"result":{}}'
    assert SECRET not in stdout and "Traceback" not in stdout
    _assert_logged(stderr, mode)
    assert stderr.count("Traceback (most recent call last):") == 2
    assert stderr.endswith("serve: stdin closed, shutting down\n")


class _Served:
    def __init__(self, wrapper: Path, mode: str, cwd: Path) -> None:
        self.log = cwd / f"serve-{mode}.log"
        self._err = open(self.log, "w+")
        self.proc = subprocess.Popen([sys.executable, str(wrapper), mode, "serve", "--mcp", "0", "--database",
                                      ":memory:", "--auth", "none"], cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=self._err, env=dict(os.environ))
        deadline = time.monotonic() + 30
        while not (m := LISTENING.search(self.log.read_text())):
            assert self.proc.poll() is None and time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.05)
        self.port = int(m.group(1))

    def stop(self) -> tuple[int, str, str]:
        self.proc.terminate()
        stdout, _ = self.proc.communicate(timeout=30)
        self._err.close()
        return self.proc.returncode, stdout.decode("utf-8"), self.log.read_text()


@pytest.mark.parametrize("mode", sorted(STDIO_REPLY))
def test_http(mode, wrapper, tmp_path):
    server = _Served(wrapper, mode, tmp_path)
    try:
        if mode == "decode":
            with connect(server.port) as sock:
                sock.sendall(request_bytes(body=BOOM, headers=JSON))
                reply = read_reply(sock)
                assert reply.status == 500 and reply.json() == {"error": "internal error"}
                assert read_reply(sock) is None  # and the connection is closed
        else:
            reply = post(server.port, BOOM, JSON)
            assert reply.status == 200 and reply.body.decode("utf-8") == STDIO_REPLY[mode]
        assert SECRET.encode() not in reply.body
        assert post(server.port, rpc(2, "ping"), JSON).json() == {"jsonrpc": "2.0", "id": 2, "result": {}}
        ok = post(server.port, tool_call(3, "read_cypher", statement="RETURN 1 AS one"), JSON).json()
        assert json.loads(ok["result"]["content"][0]["text"])["rows"] == [{"one": 1}]
    finally:
        code, stdout, stderr = server.stop()
    assert code == 0, stderr
    assert stdout == ""  # HTTP serve writes nothing on stdout
    _assert_logged(stderr, mode)
    assert re.search(r"serve: internal error (answering|in) ", stderr)
