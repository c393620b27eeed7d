"""`relate serve --http PORT`: Neo4j's HTTP Query API v2 on the project's h11 transport -> the
protocol core (`protocols/query_api.py`) -> the shared engine.

The connection handling (keep-alive, header and body deadlines, the first-byte deadline, the
shared connection limit and its eviction, framing refusals, shutdown) is `http.McpHttp`'s; this
class decides what each request gets, in this order:

1. a request line that is not HTTP/1.1, an oversized header block, a body framed two ways, two
   `Origin` headers                                          -> 400 / 431, connection closed
2. a present `Origin` that `--origin` does not list         -> 403 (no CORS headers)
3. `OPTIONS` (a CORS preflight)                              -> 204, no credential needed
4. `GET /` (discovery)                                       -> 200, no credential needed
5. a method other than GET, POST, DELETE                     -> 405
6. no credential or a wrong one                              -> 401 after a 1-second pause
7. a body over the cap                                       -> 400
8. the request goes to the core, under the engine lock.

Every refusal is `{"errors": [{"code", "message"}]}`, the shape Neo4j's drivers read.  For a
listed origin every answer carries `Access-Control-Allow-Origin` with that origin (and `Vary:
Origin`); other origins get none, so a page elsewhere cannot read a reply.  The credential is the
one every listener of the process shares: HTTP Basic with its user and password, or `Bearer` with
its password as the token.  A timer rolls back transactions idle past their timeout.
"""
from __future__ import annotations

import hmac
import json
import logging
import socket
import threading
import time
from contextlib import nullcontext
from http import HTTPStatus
from typing import Callable, ContextManager

import h11

from ..errors import E
from ..exec.context import CancelToken
from ..protocols.query_api import QueryApi, error_body
from .auth import Credential, basic_ok
from .http import HttpLimits, McpHttp, _content_length, _Drop, _linger
from .listener import Slot
from .origins import normal_origin

ALLOW_METHODS = b"GET, POST, DELETE, OPTIONS"
ALLOW_HEADERS = b"Authorization, Content-Type, Accept, neo4j-cluster-affinity"
_QUICKACK = getattr(socket, "TCP_QUICKACK", None)
REAP_EVERY = 1.0  # seconds between looks for expired transactions
log = logging.getLogger("relate.net.query_http")
_CODES = {401: "Neo.ClientError.Security.Unauthorized", 500: "Neo.DatabaseError.General.UnknownError"}


class QueryHttp(McpHttp):
    """Serves Query API requests on accepted connections (one instance for every connection)."""

    plain = False  # its requests take h11's path (methods, CORS, paths: not the MCP POST `http_plain` knows)

    def __init__(self, core: QueryApi, credential: Credential | None, limits: HttpLimits,
                 stopping: threading.Event, origins: frozenset[str] = frozenset(), engine=None) -> None:
        super().__init__(lambda line, watch: None, credential, limits, stopping)
        self.core = core
        self.origins = origins
        self.engine = engine  # the shared `mcp_http.Engine`: its stop cancels the running statement
        self._local = threading.local()  # per connection thread: the CORS headers of the request in hand

    def _recv(self, sock, deadline, idle_ok):
        # clients that write the header and the body in two sends (urllib3, so Neo4j's driver) wait
        # for the first one's ACK before the second (Nagle); without a quick ACK Linux delays it by
        # 40 ms, which becomes every request's latency
        if _QUICKACK is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
            except OSError:
                pass
        return super()._recv(sock, deadline, idle_ok)

    def _authorized(self, header: bytes | None) -> bool:
        cred = self.credential
        if cred is None:
            return True
        if header is None:
            return False
        scheme, _, token = header.strip().partition(b" ")
        if scheme.lower() == b"bearer":
            return hmac.compare_digest(token.strip(), cred.password.encode("utf-8"))
        return basic_ok(header, cred)

    def _one_request(self, sock, conn, slot: Slot | None = None, first: bool = False) -> bool:
        limits = self.limits
        self._local.cors = ()  # a refusal while the head is read carries no CORS headers
        head = self._read_request(sock, conn, slot, first)
        if head is None:
            return False
        event, headers, has_body = head
        method = event.method.decode("ascii", "replace").upper()
        origin = headers.get(b"origin")
        if origin is not None:
            shown = normal_origin(origin.decode("latin-1"))
            if shown is None or shown not in self.origins:
                return self._error(sock, conn, 403, "origin is not allowed: start the server with --origin "
                                   "for a page that may call it", close=has_body)
            self._local.cors = ((b"Access-Control-Allow-Origin", origin), (b"Vary", b"Origin"),
                          (b"Access-Control-Expose-Headers", b"neo4j-cluster-affinity"))
        if method == "OPTIONS":
            extra = [(b"Allow", ALLOW_METHODS)]
            if origin is not None:
                extra += [(b"Access-Control-Allow-Methods", ALLOW_METHODS),
                          (b"Access-Control-Allow-Headers", ALLOW_HEADERS), (b"Access-Control-Max-Age", b"600")]
            self._respond(sock, conn, 204, b"", extra=extra, close=has_body, content_type=False)
            return self._after_reply(sock, conn, has_body)
        target = event.target.decode("latin-1")
        if method == "GET" and target.split("?", 1)[0] in ("/", ""):
            return self._reply(sock, conn, self.core.handle(method, target), has_body)
        if method not in ("GET", "POST", "DELETE"):
            return self._error(sock, conn, 405, f"{method} is not supported", extra=[(b"Allow", ALLOW_METHODS)],
                               close=has_body)
        if not self._authorized(headers.get(b"authorization")):
            time.sleep(limits.auth_delay)
            message = ("No authentication header supplied." if b"authorization" not in headers
                       else "Invalid username or password.")
            return self._error(sock, conn, 401, message, extra=[(b"WWW-Authenticate", b'Basic realm="Neo4j"')],
                               close=has_body)
        if slot is not None and not slot.trust():
            raise _Drop()
        declared = _content_length(headers)
        if declared is not None and declared > limits.max_body:
            return self._error(sock, conn, 400, "malformed request: body too large", close=True)
        body = self._read_body(sock, conn) if has_body else self._end(conn)
        if body is None:
            return self._error(sock, conn, 400, "malformed request: body too large", close=True)
        # the token is cancelled if the client hangs up while its statement runs or waits, or the server stops
        calls = nullcontext(CancelToken()) if self.engine is None else self.engine.call()
        try:
            with calls as token, self.peers.watch(sock, lambda: token.cancel(E.Cancelled.ClientGone)):
                reply = self.core.handle(method, target, body, content_type=headers.get(b"content-type"),
                                         accept=headers.get(b"accept"), cancel=token)
        except Exception:  # a bug in the core: answer it rather than drop the connection
            log.exception("internal error answering a request")
            return self._error(sock, conn, 500, "internal error", close=True)
        self._respond(sock, conn, reply.status, reply.encode(), ctype=reply.content_type.encode("ascii"))
        return not self.stopping.is_set()

    def _end(self, conn) -> bytes:
        event = conn.next_event()
        while isinstance(event, h11.Data):
            event = conn.next_event()
        return b""

    def _reply(self, sock, conn, reply, has_body: bool) -> bool:
        self._respond(sock, conn, reply.status, reply.encode(), close=has_body, ctype=reply.content_type.encode())
        return self._after_reply(sock, conn, has_body)

    def _after_reply(self, sock, conn, has_body: bool) -> bool:
        if has_body:
            _linger(sock)
            return False
        event = conn.next_event()
        return isinstance(event, h11.EndOfMessage) and not self.stopping.is_set()

    def _error(self, sock, conn, status: int, message: str, *, extra=(), close: bool = False) -> bool:
        code = _CODES.get(status, "Neo.ClientError.Request.Invalid")
        body = json.dumps(error_body(code, message), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._respond(sock, conn, status, body, extra=extra, close=close)
        return self._after_reply(sock, conn, close)

    def _respond(self, sock, conn, status: int, body: bytes, *, extra=(), close: bool = False,
                 content_type: bool = True, ctype: bytes = b"application/json") -> None:
        headers = []
        if content_type:
            headers.append((b"Content-Type", ctype))
        headers.append((b"Content-Length", str(len(body)).encode("ascii")))
        headers.extend(extra)
        headers.extend(getattr(self._local, "cors", ()))
        if close or self.stopping.is_set():
            headers.append((b"Connection", b"close"))
        reason = HTTPStatus(status).phrase.encode("ascii")
        self._send(sock, conn, h11.Response(status_code=status, headers=headers, reason=reason))
        if body:
            self._send(sock, conn, h11.Data(data=body))
        self._send(sock, conn, h11.EndOfMessage())


def start_reaper(core: QueryApi, lock: Callable[[], ContextManager], stopping: threading.Event) -> threading.Thread:
    """A daemon thread that rolls back expired transactions every `REAP_EVERY` seconds until the stop."""
    def reap() -> None:
        while not stopping.wait(REAP_EVERY):
            with lock():
                core.expire()
    t = threading.Thread(target=reap, name="relate-tx-reaper", daemon=True)
    t.start()
    return t
