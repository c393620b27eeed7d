"""Port listeners: a bound socket -> accepted connections, each on its own thread, under one
connection limit shared by every listener of the process; SIGINT/SIGTERM -> a clean stop.

Over the limit a connection is accepted and closed at once (the peer sees the close rather
than a queue that never moves).  Stopping closes the listening sockets first, then waits for the
connection threads: idle ones end within a poll interval, ones with a request in flight answer
it first (see `http.py`).
"""
from __future__ import annotations

import signal
import socket
import threading
from typing import Callable

DEFAULT_MAX_CONNECTIONS = 128


class ConnectionLimit:
    """How many connections the process holds open, across all its listeners."""

    def __init__(self, maximum: int = DEFAULT_MAX_CONNECTIONS) -> None:
        self.maximum = maximum
        self._open = 0
        self._lock = threading.Lock()

    def acquire(self) -> bool:
        with self._lock:
            if self._open >= self.maximum:
                return False
            self._open += 1
            return True

    def release(self) -> None:
        with self._lock:
            self._open -= 1


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
    """Accepts connections on `sock` and hands each to `handle` on a new thread."""

    def __init__(self, sock: socket.socket, handle: Callable[[socket.socket], None], limit: ConnectionLimit,
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
        if self.stopping.is_set() or not self.limit.acquire():
            conn.close()
            return
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        t = threading.Thread(target=self._run, args=(conn,), name="relate-conn", daemon=True)
        with self._threads_lock:
            self._threads.add(t)
        t.start()

    def _run(self, conn: socket.socket) -> None:
        try:
            self.handle(conn)
        finally:
            self.limit.release()
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
