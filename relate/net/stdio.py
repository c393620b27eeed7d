"""MCP over stdio: newline-delimited JSON-RPC on stdin -> reply lines on stdout.

stdout carries nothing but replies (each flushed at once, so a host waiting on a reply gets it);
startup and shutdown lines go to stderr.  Runs until stdin closes, then exits 0.  SIGINT or
SIGTERM (when serving on the main thread) stops it too: a call in flight is cancelled and answered
with the ServerStopping tool error, then the shutdown line names the signal and the exit is 0
(the store is closed by the caller as on any return).  A line the core fails on outside its own
guard (reading the message) is answered `-32603 internal error` with a null id, its traceback
logged to stderr, and the next line is served (as HTTP answers a 500).

Lines end at "\\n" only (a "\\r" before it is dropped).  A real stdin is read as bytes so the text
layer's universal-newline handling cannot split a message at a lone "\\r"; U+2028 and other
Unicode line breaks stay inside the message, as JSON allows.
"""
from __future__ import annotations

import logging
from typing import Iterator, TextIO

from ..errors import E
from ..exec.context import CancelToken
from ..protocols.jsonrpc import INTERNAL_ERROR, error_line
from ..protocols.mcp import McpServer

log = logging.getLogger("relate.net.stdio")


class _Stop(Exception):
    """Raised by the signal handler while the loop waits on stdin (no call to cancel)."""


def _lines(stdin) -> Iterator[str]:
    raw = getattr(stdin, "buffer", None)
    if raw is not None:
        for line in iter(raw.readline, b""):
            yield line.decode("utf-8", "replace")
        return
    yield from iter(stdin.readline, "")  # a text stream given by a caller (tests, embedding)


def serve_stdio(server: McpServer, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    import signal
    import threading

    running: list[CancelToken] = []  # while a line is answered: its call's token
    received: list[str] = []

    def on_signal(signum, frame) -> None:
        if not received:
            received.append(signal.Signals(signum).name)
        if running:
            running[0].cancel(E.Cancelled.ServerStopping)  # its reply is written, then the loop ends
        else:
            raise _Stop  # waiting on stdin: nothing to answer

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, on_signal)
    stderr.write("serve: MCP (stdio) serving on stdin/stdout (auth: none)\n")
    stderr.flush()
    try:
        for raw in _lines(stdin):
            line = raw[:-1] if raw.endswith("\n") else raw
            if line.endswith("\r"):
                line = line[:-1]
            if not line.strip():
                continue
            running.append(CancelToken())
            try:
                try:
                    reply = server.handle_line(line, running[0])
                except _Stop:
                    raise
                except Exception:  # a bug in the core must not end the session and drop the lines behind it
                    log.exception("internal error answering a line")
                    reply = error_line(None, INTERNAL_ERROR, "internal error")
                if reply is not None:
                    stdout.write(reply + "\n")
                    stdout.flush()
            finally:
                running.clear()
            if received:
                break
        else:
            stderr.write("serve: stdin closed, shutting down\n")
            stderr.flush()
            return 0
    except _Stop:
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    stderr.write(f"serve: {received[0]} received, shutting down\n")
    stderr.flush()
    return 0
