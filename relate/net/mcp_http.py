"""`relate serve --mcp PORT`: an MCP protocol core -> a running streamable HTTP listener, until
SIGINT or SIGTERM.

Order of a start: bind (a taken port fails before any credential is made), settle the credential
(`auth.py`: may write the token file), print the startup lines on stderr, serve.  On a signal:
print the shutdown line, stop accepting, let requests in flight finish, return 0.  Calls into
the core are serialised by one lock: the engine runs one statement at a time.
"""
from __future__ import annotations

import threading
from typing import Callable, TextIO

from ..errors import EXIT_OTHER
from ..protocols.mcp import McpServer
from .auth import AuthSpecError, ResolvedAuth
from .http import HttpLimits, McpHttp
from .listener import ConnectionLimit, Listener, StopSignals, bind


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def run_http(server: McpServer, *, host: str, port: int, port_text: str,
             resolve_auth: Callable[[], ResolvedAuth], limits: HttpLimits, limit: ConnectionLimit,
             stderr: TextIO, preamble: tuple[str, ...] = ()) -> int:
    def say(line: str) -> None:
        stderr.write(line + "\n")
        stderr.flush()

    try:
        sock = bind(host, port)
    except OSError as e:
        reason = e.strerror or str(e)
        say(f"Error: serve --mcp {port_text}: cannot bind {host}:{port}: {reason}")
        return EXIT_OTHER
    try:
        auth = resolve_auth()
    except (AuthSpecError, OSError) as e:
        sock.close()
        say(str(e) if isinstance(e, AuthSpecError) else f"Error: auth token file: {e.strerror or e}")
        return EXIT_OTHER

    stopping = threading.Event()
    signals = StopSignals(stopping)
    lock = threading.Lock()

    def call(line: str) -> str | None:
        with lock:
            return server.handle_line(line)

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
        say(f"serve: {signals.received or 'stop'} received, shutting down")
        listener.wait()
    finally:
        signals.restore()
    return 0
