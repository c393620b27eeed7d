"""`relate serve --mcp PORT`: an MCP protocol core -> a running streamable HTTP listener, until
SIGINT or SIGTERM.

Order of a start: bind (a taken port fails before any credential is made), settle the credential
(`auth.py`: may write the token file), print the startup lines on stderr, serve.  On a signal:
print the shutdown line, stop accepting, stop the statements running or waiting for the engine
(each answers `cancelled: the server is shutting down ...`), answer the requests in flight,
return 0.

The engine runs one statement at a time: the calls that reach the database (`McpServer.needs_engine`)
hold one lock; everything else (`ping`, `tools/list`, `initialize`, notifications, errors) is
answered on its connection's thread at once, whatever runs.  Each engine call carries a cancel
token, cancelled when its client hangs up (`hangup.py`; while it waits for the lock too, so a
call nobody waits for never runs) or when the server stops.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator, TextIO

from ..errors import E, EXIT_OTHER
from ..exec.context import CancelToken
from ..protocols import jsonrpc
from ..protocols.mcp import McpServer
from ..protocols.mcp_graph import ANONYMOUS, Caller
from .auth import ResolvedAuth
from .http import HttpLimits, McpHttp, Watch
from .listener import ConnectionLimit, Listener, StopSignals, open_listener


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


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def run_http(server: McpServer, *, host: str, port: int, port_text: str,
             resolve_auth: Callable[[], ResolvedAuth], limits: HttpLimits, limit: ConnectionLimit,
             stderr: TextIO, preamble: tuple[str, ...] = ()) -> int:
    def say(line: str) -> None:
        stderr.write(line + "\n")
        stderr.flush()

    opened = open_listener(host, port, f"--mcp {port_text}", resolve_auth, say)
    if opened is None:
        return EXIT_OTHER
    sock, auth = opened
    server.set_caller(ANONYMOUS if auth.credential is None else Caller(auth.credential.user))

    stopping = threading.Event()
    signals = StopSignals(stopping)
    engine = Engine()

    def call(line: str, watch: Watch) -> str | None:
        return answer(server, engine, line, watch)

    http = McpHttp(call, auth.credential, limits, stopping)
    listener = Listener(sock, http.serve_connection, limit, stopping)
    signals.install()
    try:
        for line in preamble:
            say(line)
        for line in auth.lines:
            say(line)
        mode = "basic" if auth.credential is not None else "none"
        say(f"serve: MCP (streamable HTTP) listening on http://{url_host(host)}:{listener.port} (auth: {mode})")
        listener.serve(signals.reader)
        engine.stop()
        say(f"serve: {signals.received or 'stop'} received, shutting down")
        listener.wait()
    finally:
        signals.restore()
    return 0
