"""MCP over streamable HTTP, one connection: bytes from a socket -> h11 events -> checks -> one
JSON-RPC body for the protocol core -> one HTTP response.

The HTTP/1.1 grammar is h11's; this module decides what each request gets, in this order (the
cheap refusals that need no credential come first, and the body is read only once the credential
passed):

1. a request line that is not HTTP/1.1                    -> 400, connection closed
2. any method but POST                                    -> 405 with `Allow: POST`
3. a present `Origin` that is not loopback                -> 403
4. no `Content-Type`, `text/plain` or a form type         -> 415
5. no credential or a wrong one                           -> 401 after a 1-second pause,
                                                             with `WWW-Authenticate`
6. a declared or received body over 16 MiB               -> 400
7. the body (after `100 Continue` when the client waits for it) goes to the core:
   a notification -> 202 with an empty body; a reply -> 200, or 400 when it is an error that
   could not carry the request's id (`"id": null`), so a waiting client sees it at once.
   While the core answers, the socket is watched (`hangup.py`): a client that closes its
   connection meanwhile has the core's `on_close` run (which stops its statement).
   A core that raises -> 500 `internal error`, connection closed; the traceback goes to the
   `relate.net.http` logger (the operator's stderr under `relate serve`).  A core made with
   `headers=True` also sees the request's headers and may name the status (the 2026-07-28
   header checks of `mcp_http.py`).

Connections are kept alive between requests.  The header deadline covers the wait for a
request's whole header block, idle time before it included; the body deadline covers reading
the body.  Missing either drops the connection without a reply.  When the server stops, an idle
connection is closed at once and a request already received is answered (with
`Connection: close`) before its connection closes.
"""
from __future__ import annotations

import json
import logging
import re
import socket
import threading
import time
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from typing import Callable, ContextManager
from urllib.parse import urlsplit

import h11

from .auth import Credential, basic_ok
from .hangup import PeerWatch
from .http_plain import head_end, plain_head, response_bytes
from .listener import Slot

MAX_BODY = 16 * 1024 * 1024
MAX_HEADER_BLOCK = 64 * 1024
AUTH_FAILURE_DELAY = 1.0
FIRST_BYTE_DEADLINE = 3.0  # a new connection's first byte (never longer than the header deadline)
POLL = 0.25  # how often a waiting connection looks at the stop flag
SEND_TIMEOUT = 30.0
STOP_GRACE = 10.0  # how long a body still arriving at shutdown may take
LINGER = 3.0  # how long to drain an unread body before closing, so the reply is not reset away

ERR_AUTH = "authentication required"
ERR_ORIGIN = "origin is not allowed"
ERR_METHOD = "streamable HTTP MCP is POST-only"
ERR_SIMPLE = ("the request content type is browser-\"simple\" — a cross-origin form cannot send a "
              "non-simple type without a preflight")
ERR_TOO_LARGE = "malformed request: body too large"
ERR_FRAMING = "malformed request: both Content-Length and Transfer-Encoding are set"
ERR_ORIGINS = "malformed request: more than one Origin header"
ERR_HEADERS = f"malformed request: header block over {MAX_HEADER_BLOCK // 1024} KiB"
_SIMPLE_TYPES = (b"text/plain", b"application/x-www-form-urlencoded", b"multipart/form-data")
_LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
_NULL_ID_ERROR = '{"jsonrpc":"2.0","id":null,"error":'
_PLAIN_HEAD_MAX = 16 * 1024  # a longer head goes to h11, which measures it against the cap
_ANSWERED, _CLOSE, _H11, _EOF = "answered", "close", "h11", "eof"  # `_plain_request`'s outcomes

log = logging.getLogger("relate.net.http")


@dataclass(frozen=True, slots=True)
class HttpLimits:
    header_deadline: float | None = 10.0  # None: off
    first_byte_deadline: float | None = FIRST_BYTE_DEADLINE  # None: off; off too when header_deadline is
    body_deadline: float | None = 60.0
    max_body: int = MAX_BODY
    auth_delay: float = AUTH_FAILURE_DELAY


class _Drop(Exception):
    """The connection ends here without a reply (deadline missed, peer gone, server stopping)."""


def loopback_origin(value: bytes) -> bool:
    """Is an `Origin` header a loopback page (`http`/`https`, any port)?"""
    try:
        text = value.decode("ascii").strip()
        parts = urlsplit(text)
        port_ok = parts.port is None or parts.port >= 0  # raises ValueError for a bad port
    except (UnicodeDecodeError, ValueError):
        return False
    if parts.scheme not in ("http", "https") or not port_ok:
        return False
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        return False
    host = parts.netloc.rsplit(":", 1)[0] if not parts.netloc.endswith("]") else parts.netloc
    return host.lower() in _LOOPBACK_HOSTS


def simple_content_type(value: bytes | None) -> bool:
    """No type, or one a cross-origin form may send without a preflight."""
    if value is None:
        return True
    media = value.split(b";", 1)[0].strip().lower()
    return media in _SIMPLE_TYPES or media == b""


Watch = Callable[[Callable[[], None]], ContextManager[None]]


class McpHttp:
    """Serves MCP requests on accepted connections.  One instance is shared by every connection;
    `call(line, watch)` answers one JSON-RPC body (the protocol core behind whatever lock it
    needs), where `with watch(on_close):` runs `on_close` if the client hangs up inside the
    block; `stopping` is the stop flag."""

    def __init__(self, call: Callable[..., str | None | tuple[int, str | None]], credential: Credential | None,
                 limits: HttpLimits, stopping: threading.Event, *, headers: bool = False) -> None:
        self.call = call
        self.headers = headers  # `call(line, watch, headers)` sees the request's headers and may set the status
        self.peers = PeerWatch()
        self.credential = credential
        self.limits = limits
        self.stopping = stopping
        self._stopped_at: float | None = None

    # ------------------------------------------------------------------ one connection
    plain = True  # ordinary POSTs are read without h11 (`http_plain.py`); a subclass may turn it off

    def serve_connection(self, sock: socket.socket, slot: Slot | None = None) -> None:
        """Serve requests on `sock` until it closes.  `slot` is its place under the listener's
        connection limit: the connection is marked trusted (never evicted for a newcomer) once a
        request passes the credential check, or with auth off once any request is answered; the
        bytes it sends rank it among the untrusted ones.  Until its first request is answered a
        connection must send its first byte within the first-byte deadline (capped by the header
        deadline, off with it); after that, the header deadline alone covers the idle wait.

        Plain requests that pass every check are answered without h11; the first request that is
        not (or fails a check) hands the connection, with the bytes read so far, to h11 for good,
        so every refusal and every unusual request is h11's as before."""
        conn = None if self.plain else h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEADER_BLOCK)
        first = True
        pending = b""  # bytes read past the last plain request (a pipelined one's)
        try:
            while True:
                if conn is None:
                    outcome, pending = self._plain_request(sock, slot, first, pending)
                    if outcome is _CLOSE:
                        break
                    if outcome is _ANSWERED:
                        if slot is not None and self.credential is None:
                            slot.trust()
                        first = False
                        continue
                    conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEADER_BLOCK)
                    if pending:
                        conn.receive_data(pending)
                    if outcome is _EOF:
                        conn.receive_data(b"")
                if not self._one_request(sock, conn, slot, first):
                    break
                if conn.our_state is not h11.DONE or conn.their_state is not h11.DONE:
                    break
                if slot is not None and self.credential is None:
                    slot.trust()  # with auth off, any answered request shows a client
                first = False
                conn.start_next_cycle()
        except _Drop:
            pass
        except h11.RemoteProtocolError as e:  # broken framing inside a body (a bad chunk)
            self._refuse_malformed(sock, conn, e)
        except OSError:
            pass  # the peer went away mid-request: nothing to answer
        finally:
            try:
                if slot is not None:
                    slot.close()  # gives the slot back and closes the socket, under the limit's lock
                else:
                    sock.close()
            except OSError:
                pass

    def _plain_request(self, sock, slot: Slot | None, first: bool, pending: bytes) -> tuple[str, bytes]:
        """Read (after `pending`, bytes already read) and answer one request without h11 when it is
        plain and passes every check -> (`_ANSWERED`, the bytes read past it) or (`_CLOSE`, b""); or
        (`_H11` or `_EOF`, every byte read) for h11 to read instead.  The deadlines and the slot's
        bookkeeping are `_read_request`'s and `_read_body`'s."""
        limits = self.limits
        now = time.monotonic()
        deadline = None if limits.header_deadline is None else now + limits.header_deadline
        first_byte = None
        if first and deadline is not None and limits.first_byte_deadline is not None:
            first_byte = min(deadline, now + limits.first_byte_deadline)
        idle_ok = not pending
        searched = 0
        while True:
            end = head_end(pending, searched)
            if end >= 0:
                break
            searched = len(pending)
            if len(pending) > MAX_HEADER_BLOCK or not b"POST /".startswith(pending[:6]):
                return _H11, pending
            data = self._recv(sock, first_byte if idle_ok and first_byte is not None else deadline, idle_ok)
            if data is None:
                return _CLOSE, b""
            if not data:
                return (_EOF, pending) if pending else (_CLOSE, b"")
            idle_ok = False
            if slot is not None:
                slot.heard_from()
            pending += data
        head = plain_head(pending, end) if end <= _PLAIN_HEAD_MAX else None
        if head is None:
            return _H11, pending
        _, header_list, length = head
        headers: dict[bytes, bytes] = {}
        origins = 0
        for name, value in header_list:
            origins += name == b"origin"
            headers.setdefault(name, value)
        origin = headers.get(b"origin")
        if (origins > 1 or (origin is not None and not loopback_origin(origin))
                or simple_content_type(headers.get(b"content-type")) or length > limits.max_body
                or (self.credential is not None and not basic_ok(headers.get(b"authorization"), self.credential))):
            return _H11, pending  # h11's path refuses it, in its order, with its words
        if slot is not None and not slot.trust():
            raise _Drop()  # evicted for a newcomer just before the credential was seen
        need = end + length
        body_deadline = None if limits.body_deadline is None else time.monotonic() + limits.body_deadline
        chunks, size = [pending], len(pending)
        while size < need:
            data = self._recv(sock, body_deadline, False)
            if not data:
                return _EOF, b"".join(chunks)  # h11 words the short body
            chunks.append(data)
            size += len(data)
        pending = b"".join(chunks) if len(chunks) > 1 else pending
        if not self._answer(sock, None, pending[end:need], header_list):
            return _CLOSE, b""
        return _ANSWERED, pending[need:]

    def _read_request(self, sock, conn, slot: Slot | None = None, first: bool = False):
        """The next request's head, read under the header deadlines and refused when malformed
        (both listeners read this way) -> (request event, headers, whether a body is declared),
        or None when the connection should close now (the refusal, if any, already sent).
        `first`: no request has been answered on this connection yet."""
        limits = self.limits
        deadline = None if limits.header_deadline is None else time.monotonic() + limits.header_deadline
        first_byte = None
        if first and deadline is not None and limits.first_byte_deadline is not None:
            first_byte = min(deadline, time.monotonic() + limits.first_byte_deadline)
        try:
            event = self._next(sock, conn, deadline, idle_ok=not conn.trailing_data[0], first_byte=first_byte,
                               slot=slot)
        except h11.RemoteProtocolError as e:
            self._refuse_malformed(sock, conn, e)
            return None
        if event is None or isinstance(event, h11.ConnectionClosed):
            return None
        assert isinstance(event, h11.Request)
        headers: dict[bytes, bytes] = {}
        origins = 0
        size = len(event.method) + len(event.target) + 12  # `M T HTTP/1.1\r\n`
        for name, value in event.headers:
            name = name.lower()
            origins += name == b"origin"
            size += len(name) + len(value) + 4  # `name: value\r\n`
            headers.setdefault(name, value)
        if size > MAX_HEADER_BLOCK:
            # h11 enforces its limit only on a block still arriving; one that arrived whole in a
            # few reads is measured here, so the cap is the same however the bytes came
            self._error(sock, conn, 431, ERR_HEADERS, close=True)
            return None
        if b"content-length" in headers and b"transfer-encoding" in headers:
            # RFC 9112 section 6.1: a request framed both ways may hide a second request in its
            # body (smuggling through a proxy that reads the other header); refuse it and close
            self._error(sock, conn, 400, ERR_FRAMING, close=True)
            return None
        if origins > 1:
            # which Origin a browser meant is unknowable, and the check must not pick one
            self._error(sock, conn, 400, ERR_ORIGINS, close=True)
            return None
        if event.http_version != b"1.1":
            version = event.http_version.decode("ascii", "replace")
            self._error(sock, conn, 400, f"unsupported HTTP version HTTP/{version}: this surface answers HTTP/1.1",
                        close=True)
            return None
        return event, headers, _declares_body(headers)

    def _one_request(self, sock, conn, slot: Slot | None = None, first: bool = False) -> bool:
        """Answer one request; False when the connection should close now.  `first`: no request
        has been answered on this connection yet."""
        limits = self.limits
        head = self._read_request(sock, conn, slot, first)
        if head is None:
            return False
        event, headers, has_body = head
        if event.method != b"POST":
            return self._error(sock, conn, 405, ERR_METHOD, extra=[(b"Allow", b"POST")], close=has_body)
        origin = headers.get(b"origin")
        if origin is not None and not loopback_origin(origin):
            return self._error(sock, conn, 403, ERR_ORIGIN, close=has_body)
        if simple_content_type(headers.get(b"content-type")):
            return self._error(sock, conn, 415, ERR_SIMPLE, close=has_body)
        if self.credential is not None and not basic_ok(headers.get(b"authorization"), self.credential):
            time.sleep(limits.auth_delay)
            return self._error(sock, conn, 401, ERR_AUTH, extra=[(b"WWW-Authenticate", b'Basic realm="relate"')],
                               close=has_body)
        if slot is not None and not slot.trust():
            raise _Drop()  # evicted for a newcomer just before the credential was seen
        declared = _content_length(headers)
        if declared is not None and declared > limits.max_body:
            return self._error(sock, conn, 400, ERR_TOO_LARGE, close=True)
        body = self._read_body(sock, conn)
        if body is None:
            return self._error(sock, conn, 400, ERR_TOO_LARGE, close=True)
        return self._answer(sock, conn, body, event.headers)

    # ------------------------------------------------------------------ reading
    def _next(self, sock, conn, deadline: float | None, idle_ok: bool, first_byte: float | None = None,
              slot: Slot | None = None):
        """The next h11 event, receiving as needed until `deadline`.  `idle_ok`: nothing of this
        request has arrived yet, so a stopping server may close the connection instead; while
        that holds, `first_byte` (when given) is the deadline.  Bytes received mark `slot` active."""
        while True:
            event = conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            data = self._recv(sock, first_byte if idle_ok and first_byte is not None else deadline, idle_ok)
            if data is None:
                return None
            if data:
                idle_ok = False
                if slot is not None:
                    slot.heard_from()
            conn.receive_data(data)

    def _recv(self, sock, deadline: float | None, idle_ok: bool) -> bytes | None:
        while True:
            if self.stopping.is_set():
                if idle_ok:
                    return None
                if self._stop_grace_over():
                    raise _Drop()
            wait = POLL
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Drop()
                wait = min(wait, left)
            sock.settimeout(wait)
            try:
                return sock.recv(65536)
            except TimeoutError:  # socket.timeout is this class since 3.10
                continue

    def _stop_grace_over(self) -> bool:
        if self._stopped_at is None:
            self._stopped_at = time.monotonic()
        return time.monotonic() - self._stopped_at > STOP_GRACE

    def _read_body(self, sock, conn) -> bytes | None:
        """The whole body, or None once it grows past the cap."""
        if conn.they_are_waiting_for_100_continue:
            self._send(sock, conn, h11.InformationalResponse(status_code=100, headers=[], reason=b"Continue"))
        limits = self.limits
        deadline = None if limits.body_deadline is None else time.monotonic() + limits.body_deadline
        chunks: list[bytes] = []
        size = 0
        while True:
            event = self._next(sock, conn, deadline, idle_ok=False)
            if event is None or isinstance(event, h11.ConnectionClosed):
                raise _Drop()
            if isinstance(event, h11.Data):
                size += len(event.data)
                if size > limits.max_body:
                    return None
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                return b"".join(chunks)

    # ------------------------------------------------------------------ answering
    def _answer(self, sock, conn, body: bytes, headers=()) -> bool:
        status: int | None = None
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as e:
            reply = _null_id_error(-32700, f"malformed JSON-RPC message: the body is not UTF-8 (byte {e.start})")
        else:
            try:
                watch = partial(self.peers.watch, sock)
                out = self.call(text, watch, headers) if self.headers else self.call(text, watch)
            except Exception:  # a bug in the core: answer it rather than drop the connection
                log.exception("internal error answering a request")
                return self._error(sock, conn, 500, "internal error", close=True)
            status, reply = out if isinstance(out, tuple) else (None, out)
        if reply is None:
            self._respond(sock, conn, 202, b"", content_type=False)
        else:
            if status is None:
                status = 400 if reply.startswith(_NULL_ID_ERROR) else 200
            self._respond(sock, conn, status, reply.encode("utf-8"))
        return not self.stopping.is_set()

    def _error(self, sock, conn, status: int, message: str, *, extra=(), close: bool = False) -> bool:
        body = json.dumps({"error": message}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._respond(sock, conn, status, body, extra=extra, close=close)
        if close:
            _linger(sock)
            return False
        # no body was declared: consume the (empty) end of the request so the cycle can restart
        event = conn.next_event()
        return isinstance(event, h11.EndOfMessage) and not self.stopping.is_set()

    def _respond(self, sock, conn, status: int, body: bytes, *, extra=(), close: bool = False,
                 content_type: bool = True) -> None:
        headers = []
        if content_type:
            headers.append((b"Content-Type", b"application/json"))
        headers.append((b"Content-Length", str(len(body)).encode("ascii")))
        headers.extend(extra)
        if close or self.stopping.is_set():
            headers.append((b"Connection", b"close"))
        if conn is None:  # a plain request: the bytes h11 would write, in one send
            sock.settimeout(SEND_TIMEOUT)
            sock.sendall(response_bytes(status, headers, body))
            return
        reason = HTTPStatus(status).phrase.encode("ascii")
        self._send(sock, conn, h11.Response(status_code=status, headers=headers, reason=reason))
        if body:
            self._send(sock, conn, h11.Data(data=body))
        self._send(sock, conn, h11.EndOfMessage())

    def _send(self, sock, conn, event) -> None:
        """One h11 event on the wire (`conn` None: the plain path has no h11 state; see `_respond`)."""
        data = conn.send(event)
        if data:
            sock.settimeout(SEND_TIMEOUT)
            sock.sendall(data)

    def _refuse_malformed(self, sock, conn, err: h11.RemoteProtocolError) -> None:
        if conn.our_state is not h11.SEND_RESPONSE and conn.our_state is not h11.IDLE:
            return
        status = err.error_status_hint if 400 <= err.error_status_hint < 500 else 400
        message = ERR_HEADERS if status == 431 else f"malformed request: {_plain(err)}"
        try:
            self._error(sock, conn, status, message, close=True)
        except (h11.LocalProtocolError, OSError):
            pass


_LIBRARY_REPR = re.compile(r":?\s*(?:bytearray\()?b['\"].*$", re.S)


def _plain(err: h11.RemoteProtocolError) -> str:
    """h11's reason without the Python repr of the bytes it quotes (`bytearray(b'...')`): the
    client learns what was wrong, not how the library holds it, nor its own bytes echoed back."""
    return _LIBRARY_REPR.sub("", str(err)).strip() or "unreadable request"


def _declares_body(headers: dict) -> bool:
    if b"transfer-encoding" in headers:
        return True
    n = _content_length(headers)
    return n is not None and n > 0


def _content_length(headers: dict) -> int | None:
    raw = headers.get(b"content-length")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        return None


def _null_id_error(code: int, message: str) -> str:
    from ..protocols.jsonrpc import error_line
    return error_line(None, code, message)


def _linger(sock: socket.socket) -> None:
    """Half-close, then read and drop what the client still sends, so that closing a socket with
    unread input (which resets the connection) does not destroy the reply before it is read."""
    try:
        sock.shutdown(socket.SHUT_WR)
        end = time.monotonic() + LINGER
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            sock.settimeout(left)
            if not sock.recv(65536):
                return
    except OSError:
        return
