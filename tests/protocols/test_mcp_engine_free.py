"""Which messages need the engine (`McpServer.needs_engine`): only `tools/call`.  The transports
take the engine lock for those alone, so the classification must never let a call that reads the
database through, and the engine-free answers must not touch the database at all."""
from __future__ import annotations

import json

from relate.database import Database
from relate.protocols import jsonrpc
from relate.protocols.mcp import ENGINE_FREE, McpServer


class _NoDatabase:
    """A database that fails on any use: the engine-free methods must never reach it."""

    read_only = False

    def __getattr__(self, name):
        raise AssertionError(f"the database was used: {name}")


def _msg(method: str, with_id: bool = True):
    line = {"jsonrpc": "2.0", "method": method, **({"id": 1} if with_id else {})}
    return jsonrpc.decode(json.dumps(line))


def test_only_tools_call_needs_the_engine():
    server = McpServer(Database(":memory:"))
    assert set(server.methods) - ENGINE_FREE == {"tools/call"}
    assert server.needs_engine(_msg("tools/call"))
    for method in ("initialize", "ping", "tools/list", "resources/list", "no/such"):
        assert not server.needs_engine(_msg(method)), method
    # a notification gets no reply whatever it names
    assert not server.needs_engine(_msg("tools/call", with_id=False))


def test_the_engine_free_methods_never_touch_the_database():
    server = McpServer(Database(":memory:"))
    server.db = _NoDatabase()
    for method in sorted(ENGINE_FREE):
        reply = json.loads(server.handle(_msg(method)))
        assert "result" in reply, (method, reply)
    assert server.handle(_msg("notifications/initialized", with_id=False)) is None
