"""`relate serve --mcp PORT`: one JSON-RPC body over streamable HTTP -> the MCP protocol core,
under the engine lock when it reaches the database (the listener itself is started by
`doors.py`).  On a stop, the statements running or waiting for the engine are cancelled (each
answers `cancelled: the server is shutting down ...`).

The engine runs one statement at a time: the calls that reach the database (`McpServer.needs_engine`)
hold one lock; everything else (`ping`, `tools/list`, `initialize`, notifications, errors) is
answered on its connection's thread at once, whatever runs.  Each engine call carries a cancel
token, cancelled when its client hangs up (`hangup.py`; while it waits for the lock too, so a
call nobody waits for never runs) or when the server stops.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator

from ..errors import E
from ..exec.context import CancelToken
from ..protocols import jsonrpc
from ..protocols.mcp import McpServer
from .http import Watch


class Engine:
    """The engine lock, and the cancel tokens of the calls that hold it or wait for it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._tokens: set[CancelToken] = set()
        self._guard = threading.Lock()
        self._stopped = False

    @contextmanager
    def call(self) -> Iterator[CancelToken]:
        """A token for one call, registered until the call ends (the lock is taken by the caller,
        inside the hang-up watch)."""
        token = CancelToken()
        with self._guard:
            if self._stopped:
                token.cancel(E.Cancelled.ServerStopping)
            self._tokens.add(token)
        try:
            yield token
        finally:
            with self._guard:
                self._tokens.discard(token)

    def stop(self) -> None:
        """Cancel every call running or waiting, and every later one."""
        with self._guard:
            self._stopped = True
            for token in self._tokens:
                token.cancel(E.Cancelled.ServerStopping)


def answer(server: McpServer, engine: Engine, line: str, watch: Watch) -> str | None:
    """One JSON-RPC body -> its reply: under the engine lock only when it reaches the database."""
    msg = jsonrpc.decode(line)
    if isinstance(msg, str):
        return msg
    if not server.needs_engine(msg):
        return server.handle(msg)
    ticket = server.admit(msg)  # before waiting: a call sent again while its first runs must know it
    with engine.call() as token, watch(lambda: token.cancel(E.Cancelled.ClientGone)):
        with engine.lock:
            return server.handle(msg, token, ticket)

