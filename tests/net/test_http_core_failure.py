"""The HTTP shell around a protocol core that fails: the client gets a 500, not a dropped
connection, the operator gets the traceback through `logging`, and the server keeps serving."""
from __future__ import annotations

import logging
import threading

from relate.net.http import HttpLimits, McpHttp
from relate.net.listener import ConnectionLimit, Listener, bind
from tests.net.server import post, rpc


def test_a_failing_core_call_is_answered_with_500_and_the_server_keeps_serving(caplog):
    def call(line: str, watch):
        if '"boom"' in line:
            raise RuntimeError("a bug")
        return '{"jsonrpc":"2.0","id":1,"result":{}}'

    stopping = threading.Event()
    http = McpHttp(call, None, HttpLimits(), stopping)
    listener = Listener(bind("127.0.0.1", 0), http.serve_connection, ConnectionLimit(4), stopping)
    port = listener.port
    t = threading.Thread(target=listener.serve, daemon=True)
    t.start()
    try:
        with caplog.at_level(logging.ERROR, logger="relate.net.http"):
            r = post(port, rpc(1, "boom"), {"Content-Type": "application/json"})
        assert r.status == 500 and r.json() == {"error": "internal error"}
        assert b"a bug" not in r.body
        assert "Traceback" in caplog.text and "RuntimeError: a bug" in caplog.text
        assert post(port, rpc(1, "ping"), {"Content-Type": "application/json"}).status == 200
    finally:
        stopping.set()
        t.join(10)
        listener.wait()
