"""`relate serve --bolt PORT`: Bolt 5.0-5.4 connections -> the protocol core
(`protocols/bolt_session.py`) -> the shared engine.

One port takes both transports: a connection that opens with Bolt's magic bytes speaks Bolt over
TCP (Neo4j's drivers, `bolt://` and `neo4j://`); one that opens with `GET ` is a WebSocket upgrade
(the browser JavaScript driver), after which the binary WebSocket messages carry the same byte
stream; an upgrade from a page whose origin `--origin` does not list gets 403.  Anything else is
closed.

Per connection: the 20-byte handshake (`bolt_framing.negotiate`), then chunks -> messages ->
`BoltSession.handle` -> chunked replies, written after each batch of messages that arrived
together (drivers pipeline HELLO+LOGON, BEGIN+RUN+PULL).  Bytes that do not frame, or a message
the protocol does not allow, get a FAILURE and the connection closes; the other connections go
on.  A dropped connection rolls its open transaction back.  A wrong credential waits
`AUTH_FAILURE_DELAY` before its FAILURE, as the HTTP listener's 401 does.  A new connection must
send its first byte within `FIRST_BYTE_DEADLINE` and authenticate within `AUTH_DEADLINE`; only
then is it trusted by the shared connection limit (`listener.Slot`).

Statements run one at a time under the engine lock shared with the other listeners of the process.
"""
from __future__ import annotations

import hmac
import logging
import queue
import select
import socket
import threading
import time
from itertools import count
from typing import Callable

from ..errors import E, RelateError
from ..protocols import bolt_framing as F
from ..protocols import bolt_messages as M
from ..protocols.bolt_session import BoltSession
from ..protocols.neo4j_codes import code_of, failure_message
from ..transactions import Transactions
from .auth import Credential
from .listener import Slot
from .mcp_http import Engine
from .origins import normal_origin

AUTH_FAILURE_DELAY = 1.0
FIRST_BYTE_DEADLINE = 3.0
AUTH_DEADLINE = 10.0
POLL = 0.25
SEND_TIMEOUT = 30.0
MAX_QUEUED = 64  # batches of messages read ahead of the one being handled
PROBE_EVERY = 0.1  # seconds between NOOPs that look for a closed peer once its stream has ended
RECV_SIZE = 65536

log = logging.getLogger("relate.net.bolt")
_ids = count(1)


def credential_check(credential: Credential | None) -> Callable[[dict], bool]:
    """The Bolt auth map (HELLO in 5.0, LOGON later) -> accepted?  With a credential, the scheme
    `basic` with its password (any user name: drivers default to `neo4j`) or `bearer` with it as the
    token; without one, anything."""
    def check(auth: dict) -> bool:
        if credential is None:
            return True
        scheme = auth.get("scheme")
        secret = auth.get("credentials")
        if scheme not in ("basic", "bearer") or not isinstance(secret, str):
            return False
        return hmac.compare_digest(secret.encode("utf-8", "surrogatepass"), credential.password.encode("utf-8"))
    return check


class _Tcp:
    def __init__(self, sock: socket.socket, stopping: threading.Event) -> None:
        self.sock = sock
        self.stopping = stopping
        self._sending = threading.Lock()  # whole batches of replies, or a NOOP between them

    def recv(self, deadline: float | None) -> bytes:
        """Bytes, or b"" at the end of the stream, a stop or the deadline."""
        while not self.stopping.is_set():
            wait = POLL if deadline is None else min(POLL, deadline - time.monotonic())
            if wait <= 0:
                return b""
            ready, _, _ = select.select([self.sock], [], [], wait)
            if ready:
                try:
                    return self.sock.recv(RECV_SIZE)
                except OSError:
                    return b""
        return b""

    def send(self, data: bytes) -> None:
        with self._sending:
            self.sock.settimeout(SEND_TIMEOUT)
            try:
                self.sock.sendall(data)
            finally:
                self.sock.settimeout(None)

    def peer_gone(self) -> bool:
        """After the end of the stream: did the peer close the connection, or only its sending side
        (a half close: it still reads the answers)?  A NOOP (an empty chunk, which clients skip) is
        written between replies; a peer that has closed answers it with a reset, and a later write
        fails."""
        with self._sending:
            try:
                self.sock.send(F.NOOP, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return False
            except OSError:
                return True
        return False


class _WsServer:
    """What websockets' ServerConnection reads of its server: whether the server is closing."""

    def __init__(self, stopping: threading.Event) -> None:
        self.socket_closed = stopping


def origin_refusal(origins: list[str], allowed: frozenset[str]) -> str | None:
    """The `Origin` headers of a WebSocket upgrade -> why it is refused, or None.  A browser
    sends its page's origin and lets any page open a WebSocket anywhere, so, as for the Query
    API, only the pages `--origin` lists may connect; a client that sends none (not a browser)
    may."""
    if len(origins) > 1:
        return "more than one Origin header"
    if origins and normal_origin(origins[0]) not in allowed:
        return "origin is not allowed: start the server with --origin for a page that may connect"
    return None


class _WebSocket:
    def __init__(self, sock: socket.socket, stopping: threading.Event, origins: frozenset[str]) -> None:
        from websockets.server import ServerProtocol
        from websockets.sync.server import ServerConnection
        self.stopping = stopping
        self.conn = ServerConnection(sock, ServerProtocol(max_size=F.MAX_MESSAGE), _WsServer(stopping),  # type: ignore[arg-type]
                                     ping_interval=None)

        def check(conn, request):
            why = origin_refusal(request.headers.get_all("Origin"), origins)
            return None if why is None else conn.respond(403, why + "\n")
        self.conn.handshake(check, timeout=AUTH_DEADLINE)
        if self.conn.response is None or self.conn.response.status_code != 101:
            raise ConnectionError("the WebSocket handshake failed")

    def recv(self, deadline: float | None) -> bytes:
        from websockets.exceptions import ConnectionClosed
        while not self.stopping.is_set():
            wait = POLL if deadline is None else min(POLL, deadline - time.monotonic())
            if wait <= 0:
                return b""
            try:
                data = self.conn.recv(timeout=wait)
            except TimeoutError:
                continue
            except ConnectionClosed:
                return b""
            if isinstance(data, str):
                return b""  # Bolt rides binary messages only
            if data:
                return data
        return b""

    def send(self, data: bytes) -> None:
        self.conn.send(data)

    def peer_gone(self) -> bool:
        return True  # a WebSocket has no half close: the end of the stream is the peer's close

    def close(self) -> None:
        try:
            self.conn.close()
        except Exception:
            pass


def _peek(sock: socket.socket, n: int, deadline: float, stopping: threading.Event) -> bytes:
    """The first `n` bytes the peer sent, left in the socket (fewer at a close or the deadline)."""
    while not stopping.is_set() and time.monotonic() < deadline:
        ready, _, _ = select.select([sock], [], [], POLL)
        if not ready:
            continue
        try:
            data = sock.recv(n, socket.MSG_PEEK)
        except OSError:
            return b""
        if len(data) >= n or not data:
            return data
        time.sleep(0.01)
    return b""


class BoltServer:
    """Serves Bolt connections for one listener."""

    def __init__(self, txs: Transactions, engine: Engine, credential: Credential | None,
                 stopping: threading.Event, origins: frozenset[str] = frozenset()) -> None:
        self.txs = txs
        self.origins = origins  # the pages (`--origin`) that may connect over WebSocket
        self.engine = engine  # its lock runs one statement at a time; its stop cancels them
        self.check = credential_check(credential)
        self.stopping = stopping

    def serve_connection(self, sock: socket.socket, slot: Slot) -> None:
        opened = time.monotonic()
        first = _peek(sock, 4, opened + FIRST_BYTE_DEADLINE, self.stopping)
        if not first:
            return
        slot.heard_from()
        if first == F.MAGIC:
            pipe: _Tcp | _WebSocket = _Tcp(sock, self.stopping)
        elif first == b"GET ":
            try:
                pipe = _WebSocket(sock, self.stopping, self.origins)
            except Exception:
                return
        else:
            return  # neither Bolt nor a WebSocket upgrade
        try:
            self._converse(pipe, slot, opened)
        finally:
            if isinstance(pipe, _WebSocket):
                pipe.close()

    def _converse(self, pipe, slot: Slot, opened: float) -> None:
        auth_by = opened + AUTH_DEADLINE
        head = b""
        while len(head) < 20:
            data = pipe.recv(auth_by)
            if not data:
                return
            head += data
        head, rest = head[:20], head[20:]
        if head[:4] != F.MAGIC:
            return
        version = F.negotiate(head[4:])
        pipe.send(F.reply(version))
        if version is None:
            return
        session = BoltSession(self.txs, version, authenticate=self.check, lock=lambda: self.engine.lock,
                              connection_id=f"bolt-{next(_ids)}")
        inbox = _Inbox(pipe, session, auth_by, self.stopping)
        threading.Thread(target=inbox.read, args=(rest,), name=f"relate-{session.connection_id}",
                         daemon=True).start()
        try:
            while True:
                batch = inbox.queue.get()
                if batch is None:
                    return
                if isinstance(batch, RelateError):
                    pipe.send(F.chunk(M.failure(code_of(batch), failure_message(batch))))
                    return
                out = bytearray()
                for message in batch:
                    with self.engine.call() as token:
                        session.token = token
                        if inbox.gone is not None:  # after the token is set: `hang_up` may have missed it
                            break
                        replies = session.handle(message)
                        session.token = None
                    for reply in replies:
                        out += F.chunk(reply)
                    if session.auth_failed:
                        time.sleep(AUTH_FAILURE_DELAY)
                    if session.closed:
                        break
                if session.authenticated and not slot.trust():
                    return  # evicted meanwhile
                if out:
                    pipe.send(bytes(out))  # after a hang-up too: a stopping server's FAILURE may reach it
                if session.closed or inbox.gone is not None:
                    return
        except OSError:
            return
        finally:
            session.token = None
            inbox.stop()
            session.close()


def _is_reset(message: bytes) -> bool:
    return message[:2] == b"\xB0\x0F"  # a structure of no fields, tag RESET


class _Inbox:
    """The reading side of one connection, on a thread of its own, so that a RESET or a hang-up is
    seen while a statement runs: bytes -> messages, queued for the connection's thread in the
    batches they arrived in (then None at the end of the stream, or the framing error).  A RESET
    interrupts the session at once.  A client gone (`ClientGone`; for TCP, the end of the stream
    and a NOOP written that fails, since a half-closed client still reads its answers) or the
    server stopping (`ServerStopping`) stops the running statement and sets `gone`."""

    def __init__(self, pipe, session: BoltSession, auth_by: float, stopping: threading.Event) -> None:
        self.pipe = pipe
        self.session = session
        self.auth_by = auth_by
        self.stopping = stopping
        self.queue: queue.Queue = queue.Queue(MAX_QUEUED)
        self.gone = None  # the Cancelled kind once the stream has ended
        self._done = threading.Event()  # the connection's thread is finished with the session

    def read(self, rest: bytes) -> None:
        frames = F.Dechunker()
        session = self.session
        try:
            while not self._done.is_set():
                data, rest = (rest, b"") if rest else (self.pipe.recv(None if session.authenticated
                                                                      else self.auth_by), b"")
                if not data:
                    break
                try:
                    messages = frames.feed(data)
                except RelateError as e:
                    self._put(e)
                    break
                for message in messages:
                    if _is_reset(message):
                        session.interrupt()
                if messages:
                    self._put(messages)
        except Exception:
            log.debug("bolt %s: reading ended", session.connection_id, exc_info=True)
        if self.stopping.is_set():
            self._end(E.Cancelled.ServerStopping)
            return
        # the client has stopped sending (or missed the login deadline): the messages it sent
        # are still answered, unless it has closed the connection, which a NOOP now and then
        # finds out
        self._put(None)
        while not self._done.wait(PROBE_EVERY):
            if self.stopping.is_set() or self.pipe.peer_gone():
                self._end(E.Cancelled.ServerStopping if self.stopping.is_set() else E.Cancelled.ClientGone)
                return

    def _end(self, reason) -> None:
        """Nobody reads the answers any more: stop the running statement, drop what is queued."""
        if not self._done.is_set():
            self.gone = reason
            self.session.hang_up(reason)
        self._put(None)

    def _put(self, item) -> None:
        """Queue `item`, waiting while the queue is full (a client that pipelines faster than its
        statements run is held back by TCP), unless the connection's thread has finished."""
        while not self._done.is_set():
            try:
                self.queue.put(item, timeout=POLL)
                return
            except queue.Full:
                continue

    def stop(self) -> None:
        self._done.set()
