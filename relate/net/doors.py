"""`relate serve` with any of `--mcp PORT`, `--bolt PORT`, `--http PORT`: the listeners asked for
-> one process serving them all, until SIGINT or SIGTERM.

Order of a start: bind every port (a taken one fails before any credential is made, and before
the others serve), settle the one credential (`auth.py`: may write the token file), print the
startup lines on stderr, serve.  Every listener shares the credential, the connection limit, the
engine lock (`mcp_http.Engine`, one statement at a time) and the `Transactions` (one writer, and
an explicit transaction's writes unseen elsewhere until it commits).  On a signal: print the
shutdown line, stop accepting everywhere, cancel what waits for the engine, answer the requests
in flight, roll back what is still open, return 0.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, TextIO

from ..errors import EXIT_OTHER
from .auth import AuthSpecError, Credential, ResolvedAuth
from .listener import ConnectionLimit, Listener, Slot, StopSignals, bind


@dataclass(frozen=True)
class Door:
    """One listener to open: its flag (for messages), port, how to serve a connection once the
    credential is known, and the line that announces it (given the bound port and auth mode)."""

    flag: str
    port: int
    serve: Callable[[Credential | None, threading.Event], Callable[[object, Slot], None]]
    announce: Callable[[int, str], str]


def run_doors(doors: list[Door], *, host: str, resolve_auth: Callable[[], ResolvedAuth], limit: ConnectionLimit,
              stderr: TextIO, preamble: tuple[str, ...] = (),
              on_stop: tuple[Callable[[], None], ...] = (),
              on_bound: Callable[[list[int]], None] | None = None) -> int:
    """Serve `doors` until a signal; `on_bound` learns the bound ports (in `doors` order) before
    any connection is taken."""
    def say(line: str) -> None:
        stderr.write(line + "\n")
        stderr.flush()

    socks = []
    for door in doors:
        try:
            socks.append(bind(host, door.port))
        except OSError as e:
            for s in socks:
                s.close()
            say(f"Error: serve {door.flag}: cannot bind {host}:{door.port}: {e.strerror or e}")
            return EXIT_OTHER
    try:
        auth = resolve_auth()
    except (AuthSpecError, OSError) as e:
        for s in socks:
            s.close()
        say(str(e) if isinstance(e, AuthSpecError) else f"Error: auth token file: {e.strerror or e}")
        return EXIT_OTHER

    if on_bound is not None:
        on_bound([s.getsockname()[1] for s in socks])
    stopping = threading.Event()
    signals = StopSignals(stopping)
    listeners = [Listener(sock, door.serve(auth.credential, stopping), limit, stopping)
                 for door, sock in zip(doors, socks)]
    signals.install()
    threads: list[threading.Thread] = []
    try:
        for line in preamble + auth.lines:
            say(line)
        mode = "basic" if auth.credential is not None else "none"
        for door, listener in zip(doors, listeners):
            say(door.announce(listener.port, mode))
        for listener in listeners[1:]:
            t = threading.Thread(target=listener.serve, name="relate-accept", daemon=True)
            t.start()
            threads.append(t)
        listeners[0].serve(signals.reader)
        stopping.set()
        for stop in on_stop:
            stop()
        say(f"serve: {signals.received or 'stop'} received, shutting down")
        for t in threads:
            t.join()
        for listener in listeners:
            listener.wait()
    finally:
        signals.restore()
    return 0


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
