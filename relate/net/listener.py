"""Port listeners: a bound socket -> accepted connections, each on its own thread, under one
connection limit shared by every listener of the process; SIGINT/SIGTERM -> a clean stop.

At the limit a newcomer first evicts a connection that has not shown it is a client (no request
on it has passed the credential check; see `ConnectionLimit`), so idle unauthenticated
connections cannot lock the clients out.  When every slot is held by such a client the newcomer
is over the limit.

Over the limit a connection is accepted and closed at once (the peer sees the close rather
than a queue that never moves).  Stopping closes the listening sockets first, then waits for the
connection threads: idle ones end within a poll interval, ones with a request in flight answer
it first (see `http.py`).
"""
from __future__ import annotations

import select
import signal
import socket
import threading
import time
from typing import Callable

DEFAULT_MAX_CONNECTIONS = 128
TALK_CREDIT = 0.25  # seconds: how much less suspect sending bytes makes a connection than silence


class Slot:
    """One accepted connection's place under the limit, and what eviction weighs about it.

    `trusted` (set once a request on the connection passed the credential check, see `trust`) and
    `evicted` change only under the limit's lock, so a connection is never both.  `heard_at` (when
    the connection sent its first byte) is written by the connection's thread without the lock:
    it only ranks the candidates, and a stale value picks another untrusted victim, never a
    trusted one."""

    __slots__ = ("sock", "opened", "heard_at", "trusted", "evicted", "_limit")

    def __init__(self, limit: "ConnectionLimit", sock: socket.socket) -> None:
        self._limit = limit
        self.sock = sock
        self.opened = time.monotonic()
        self.heard_at: float | None = None
        self.trusted = False
        self.evicted = False

    def heard_from(self) -> None:
        """Bytes arrived on the connection."""
        if self.heard_at is None:
            self.heard_at = time.monotonic()

    def trust(self) -> bool:
        """The connection has shown it is a client of this server: from now on it is never evicted.
        False when it was evicted first (its socket is already shut down)."""
        if self.trusted:
            return True
        with self._limit._lock:
            if not self.evicted:
                self.trusted = True
            return self.trusted

    def close(self) -> None:
        """Give the slot back and close the socket (both under the lock; calling it again is a no-op)."""
        self._limit.release(self)


class ConnectionLimit:
    """How many connections the process holds open, across all its listeners.

    At the cap, a newcomer takes the slot of a connection that has not been trusted yet (see
    `Slot.trust`), if there is one: the one under suspicion the longest.  A connection that has
    sent nothing is suspect from the moment it opened; one that has sent bytes (or has bytes
    waiting unread), from its first byte plus `TALK_CREDIT`; a dead one (reset, or closed both
    ways) goes first.  A client's request arrives, and earns trust, within moments of its
    connection, so newcomers churn through silent connections, then slowloris ones that have
    dripped for a while, before they reach it.  The victim's socket is shut down, which ends its
    thread at its next read or write, and its slot is free before the newcomer takes one.  With
    every slot trusted the newcomer is refused (`acquire` returns None)."""

    def __init__(self, maximum: int = DEFAULT_MAX_CONNECTIONS) -> None:
        self.maximum = maximum
        self._slots: set[Slot] = set()
        self._lock = threading.Lock()

    def acquire(self, sock: socket.socket) -> Slot | None:
        with self._lock:
            if len(self._slots) >= self.maximum and not self._evict_one():
                return None
            slot = Slot(self, sock)
            self._slots.add(slot)
            return slot

    def release(self, slot: Slot) -> None:
        with self._lock:
            self._slots.discard(slot)
            # closed under the lock: an eviction's shutdown never meets a descriptor number that
            # a close just freed and an accept reused
            try:
                slot.sock.close()
            except OSError:
                pass

    def _evict_one(self) -> bool:
        """Shut down the most evictable untrusted connection; False when every one is trusted."""
        candidates = [s for s in self._slots if not s.trusted]
        if not candidates:
            return False
        dead, readable = _peek(candidates)
        now = time.monotonic()

        def suspect_since(slot: Slot) -> float:
            fd = slot.sock.fileno()
            if fd in dead:
                return float("-inf")
            heard_at = slot.heard_at if slot.heard_at is not None else now if fd in readable else None
            return slot.opened if heard_at is None else heard_at + TALK_CREDIT

        victim = min(candidates, key=suspect_since)
        victim.evicted = True
        self._slots.discard(victim)
        try:
            victim.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        return True


def _peek(slots: list[Slot]) -> tuple[set[int], set[int]]:
    """Which of these sockets are dead (reset, or closed both ways) and which have bytes (or an
    end of stream) waiting: one poll that does not wait, as the lock is held.  Empty sets where
    `poll` is missing."""
    dead: set[int] = set()
    readable: set[int] = set()
    poll = getattr(select, "poll", None)
    if poll is None:
        return dead, readable
    p = poll()
    for s in slots:
        fd = s.sock.fileno()
        if fd >= 0:
            p.register(fd, select.POLLIN)
    try:
        events = p.poll(0)
    except OSError:
        return dead, readable
    for fd, ev in events:
        if ev & (select.POLLHUP | select.POLLERR):
            dead.add(fd)
        elif ev & select.POLLIN:
            readable.add(fd)
    return dead, readable


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (OSError when the address is taken or unknown)."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        # lets a restarted server take its port while old connections sit in TIME_WAIT; on Linux
        # it does not allow two live listeners on one port
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


class Listener:
    """Accepts connections on `sock` and hands each, with its slot, to `handle` on a new thread
    (`handle` may mark the slot trusted; it need not close the socket)."""

    def __init__(self, sock: socket.socket, handle: Callable[[socket.socket, Slot], None], limit: ConnectionLimit,
                 stopping: threading.Event) -> None:
        self.sock = sock
        self.handle = handle
        self.limit = limit
        self.stopping = stopping
        self._threads: set[threading.Thread] = set()
        self._threads_lock = threading.Lock()

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]

    def serve(self, wakeup: socket.socket | None = None) -> None:
        """Accept until `stopping` is set (a byte on `wakeup` makes the loop look at once)."""
        import selectors
        sel = selectors.DefaultSelector()
        sel.register(self.sock, selectors.EVENT_READ)
        if wakeup is not None:
            sel.register(wakeup, selectors.EVENT_READ)
        try:
            while not self.stopping.is_set():
                for key, _ in sel.select(timeout=0.5):
                    if key.fileobj is wakeup:
                        try:
                            wakeup.recv(64)
                        except OSError:
                            pass
                        continue
                    self._accept()
        finally:
            sel.close()
            self.sock.close()

    def _accept(self) -> None:
        try:
            conn, _ = self.sock.accept()
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return  # e.g. too many open files: keep serving the connections we have
        if self.stopping.is_set():
            conn.close()
            return
        try:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        slot = self.limit.acquire(conn)
        if slot is None:
            conn.close()
            return
        t = threading.Thread(target=self._run, args=(conn, slot), name="relate-conn", daemon=True)
        with self._threads_lock:
            self._threads.add(t)
        try:
            t.start()
        except RuntimeError:  # no thread to be had: give the slot back rather than leak it
            with self._threads_lock:
                self._threads.discard(t)
            slot.close()

    def _run(self, conn: socket.socket, slot: Slot) -> None:
        try:
            self.handle(conn, slot)
        finally:
            slot.close()
            with self._threads_lock:
                self._threads.discard(threading.current_thread())

    def wait(self) -> None:
        """Wait until every connection thread has ended."""
        while True:
            with self._threads_lock:
                threads = list(self._threads)
            if not threads:
                return
            for t in threads:
                t.join()


class StopSignals:
    """SIGINT and SIGTERM set `stopping` and wake the accept loop; `received` names the signal.
    Installed only on the main thread (Python delivers signals there)."""

    def __init__(self, stopping: threading.Event) -> None:
        self.stopping = stopping
        self.received: str | None = None
        self.reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)
        self._previous: dict[int, object] = {}

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._previous[sig] = signal.signal(sig, self._on_signal)

    def _on_signal(self, signum, frame) -> None:
        self.stop(signal.Signals(signum).name)

    def stop(self, reason: str) -> None:
        """Stop as a signal does; `reason` is what the shutdown line names (the first one wins)."""
        if self.received is None:
            self.received = reason
        self.stopping.set()
        try:
            self._writer.send(b"x")
        except OSError:
            pass

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()
        self.reader.close()
        self._writer.close()

