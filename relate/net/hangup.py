"""Noticing a client that hangs up while its request is being answered.

While a connection's thread runs a request (a statement, for as long as it takes) nobody reads
its socket, so a client that closes the connection would go unnoticed until the reply is written.
`PeerWatch` is one thread for the whole process that polls the sockets of the requests being
answered and runs a request's `on_close` once its client has closed the connection (or its sending
side: a FIN, a reset or an error on the socket).  Bytes the client sends meanwhile (a pipelined
request) stay unread for the connection's thread.

The watch thread is woken (a byte on a socket pair) only when it sleeps without a timeout, which it
does after `IDLE` seconds with nothing watched; while requests come it polls every `TICK` seconds
and picks up newly watched sockets then, so a request costs no thread switch, and a hang-up is
seen within `TICK` of the request's start at worst.

Linux reports a peer's close with `POLLRDHUP` even when unread bytes are queued.  Elsewhere the
watch looks for the end of the stream behind `POLLIN` without consuming anything, and stops
watching a socket with queued bytes (it cannot see past them).  Without `select.poll` (Windows)
nothing is watched.
"""
from __future__ import annotations

import select
import socket
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

_POLL = getattr(select, "poll", None)
_RDHUP = getattr(select, "POLLRDHUP", 0)
_GONE = (select.POLLHUP | select.POLLERR | _RDHUP) if _POLL is not None else 0
_EVENTS = (_RDHUP or select.POLLIN) if _POLL is not None else 0
TICK = 0.05  # seconds between the watch thread's polls while it has been busy lately
IDLE = 1.0  # seconds with nothing watched before it sleeps until woken


def peer_closed(sock: socket.socket) -> bool | None:
    """Has the client closed `sock`?  True: closed; False: open, nothing to read; None: open as
    far as can be seen, with bytes queued (without POLLRDHUP nothing lies past them)."""
    p = _POLL()
    try:
        p.register(sock.fileno(), _EVENTS)
    except (OSError, ValueError):
        return True  # closed under us
    events = p.poll(0)
    if not events:
        return False
    flags = events[0][1]
    if flags & select.POLLNVAL:
        return True
    if flags & _GONE:
        return True
    try:
        data = sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return None if data else True


class PeerWatch:
    """One poller for the sockets of requests in flight; `watch(sock, on_close)` brackets one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watched: dict[int, tuple[socket.socket, Callable[[], None]]] = {}
        self._poll = None
        self._wake_r: socket.socket | None = None
        self._wake_w: socket.socket | None = None
        self._asleep = False  # the watch thread polls without a timeout: a new socket must wake it

    @contextmanager
    def watch(self, sock: socket.socket, on_close: Callable[[], None]) -> Iterator[None]:
        """Run `on_close` (on the watch thread, at most once) if the client closes `sock`
        before the block ends."""
        if _POLL is None:
            yield
            return
        fd = sock.fileno()
        with self._lock:
            self._start()
            self._watched[fd] = (sock, on_close)
            self._poll.register(fd, _EVENTS)
            if self._asleep:
                self._asleep = False
                self._wake()
        try:
            yield
        finally:
            with self._lock:
                if self._watched.get(fd, (None,))[0] is sock:
                    del self._watched[fd]
                    self._unregister(fd)

    # ------------------------------------------------------------------ the watch thread
    def _start(self) -> None:
        if self._poll is not None:
            return
        self._poll = _POLL()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._poll.register(self._wake_r.fileno(), select.POLLIN)
        threading.Thread(target=self._run, name="relate-hangup", daemon=True).start()

    def _wake(self) -> None:
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass  # a wake-up is already queued

    def _unregister(self, fd: int) -> None:
        try:
            self._poll.unregister(fd)
        except KeyError:
            pass

    def _run(self) -> None:
        wake = self._wake_r.fileno()
        last_busy = time.monotonic()
        while True:
            with self._lock:
                if self._watched:
                    last_busy = time.monotonic()
                elif time.monotonic() - last_busy > IDLE:
                    self._asleep = True
                timeout = None if self._asleep else TICK * 1000
            events = self._poll.poll(timeout)
            for fd, _ in events:
                if fd == wake:
                    try:
                        self._wake_r.recv(4096)
                    except OSError:
                        pass
                    continue
                with self._lock:
                    entry = self._watched.get(fd)
                    if entry is None:
                        continue
                    sock, on_close = entry
                    # the event may belong to a socket that has since ended and whose descriptor
                    # was reused: look at the watched socket itself before believing it
                    state = peer_closed(sock)
                    if state is False:
                        continue
                    del self._watched[fd]
                    self._unregister(fd)
                if state:
                    on_close()
