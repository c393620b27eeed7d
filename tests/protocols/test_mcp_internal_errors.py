"""A bug inside the engine, as the MCP caller and the operator see it: the caller gets only
`internal error` (the reply bytes are what they always were), the operator gets the traceback on
stderr through `logging`, and stdout carries nothing but protocol lines."""
from __future__ import annotations

import io
import json
import logging

import pytest

import relate
from relate.cli.main import run
from relate.database import Database
from relate.procedures import Procedure, parse_signature
from relate.protocols.mcp import McpServer

INTERNAL = '{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"internal error"}}'


def tools_call(tool: str, statement: str, id_: int = 7) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                       "params": {"name": tool, "arguments": {"statement": statement}}})


def _boom(args, ctx):
    raise RuntimeError("a bug in a procedure")


@pytest.fixture
def buggy_db():
    db = relate.connect()
    db.register_procedure(Procedure(parse_signature("test.boom() :: (x :: INTEGER?)"), _boom))
    return db


def test_a_plain_exception_in_the_engine_is_internal_error_and_logged(buggy_db, caplog):
    server = McpServer(buggy_db)
    with caplog.at_level(logging.ERROR, logger="relate.mcp"):
        reply = server.handle_line(tools_call("read_cypher", "CALL test.boom() YIELD x RETURN x"))
    assert reply == INTERNAL
    assert "a bug in a procedure" not in reply
    [record] = [r for r in caplog.records if r.name == "relate.mcp"]
    assert record.levelno == logging.ERROR and "tools/call" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError
    assert "RuntimeError: a bug in a procedure" in caplog.text and "Traceback" in caplog.text
    # the server keeps serving
    ok = json.loads(server.handle_line(tools_call("read_cypher", "RETURN 1 AS one", 8)))
    assert ok["result"]["isError"] is False


def test_a_recursion_error_is_a_tool_error_and_logged(buggy_db, caplog, monkeypatch):
    def deep(*a, **kw):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(Database, "run", deep)
    with caplog.at_level(logging.ERROR, logger="relate.mcp"):
        reply = McpServer(buggy_db).handle_line(tools_call("read_cypher", "RETURN 1 AS one"))
    assert reply == ('{"jsonrpc":"2.0","id":7,"result":{"content":[{"text":"Error: internal error",'
                     '"type":"text"}],"isError":true}}')
    assert "RecursionError: maximum recursion depth exceeded" in caplog.text


def test_serve_stdio_logs_the_traceback_on_stderr_and_keeps_stdout_protocol_only(monkeypatch):
    def broken(*a, **kw):
        raise KeyError("engine state")

    monkeypatch.setattr(Database, "run", broken)
    lines = [tools_call("read_cypher", "RETURN 1 AS one"), '{"jsonrpc":"2.0","id":8,"method":"ping"}']
    out, err = io.StringIO(), io.StringIO()
    code = run(["serve", "--mcp", "stdio"], env={}, stdin=io.StringIO("\n".join(lines) + "\n"),
               stdout=out, stderr=err)
    assert code == 0
    assert out.getvalue() == INTERNAL + "\n" + '{"jsonrpc":"2.0","id":8,"result":{}}\n'
    log = err.getvalue()
    assert log.startswith("serve: MCP (stdio) serving on stdin/stdout (auth: none)\n")
    assert "serve: internal error answering tools/call\nTraceback (most recent call last):\n" in log
    assert "KeyError: 'engine state'" in log
    assert log.endswith("serve: stdin closed, shutting down\n")
    # the handler is gone once serve returned: a later server in this process logs nowhere here
    assert not any(getattr(h, "stream", None) is err for h in logging.getLogger("relate").handlers)
