"""`relate serve --mcp PORT`: one JSON-RPC body over streamable HTTP -> the MCP protocol core,
under the engine lock when it reaches the database (the listener itself is started by
`doors.py`).  On a stop, the statements running or waiting for the engine are cancelled (each
answers `cancelled: the server is shutting down ...`).

The engine runs one statement at a time: the calls that reach the database (`McpServer.needs_engine`)
hold one lock; everything else (`ping`, `tools/list`, `initialize`, notifications, errors) is
answered on its connection's thread at once, whatever runs.  Each engine call carries a cancel
token, cancelled when its client hangs up (`hangup.py`; while it waits for the lock too, so a
call nobody waits for never runs) or when the server stops.

The 2026-07-28 revision (`protocols/mcp_era.py`) mirrors parts of the body in headers, and the
server checks them before anything runs (`era_headers`).  A request is new-era when its body's
`_meta` names a protocol version or its `MCP-Protocol-Version` header names the new revision;
then, in this order: a routing header given twice, a missing `MCP-Protocol-Version` or one that
differs from the body's -> 400 with -32020 (`HeaderMismatch`); a version this server does not
serve -> 400 with -32022 and `data.supported`; `Mcp-Method` missing or not the body's method, or
(for `tools/call`) `Mcp-Name` missing or not the tool's name -> 400 with -32020.  Its answer's
status follows the revision's table: -32601 -> 404; -32700, -32600, -32602, -32020, -32022 ->
400; anything else 200.  A legacy request (no such header, or a handshake version) is answered
as before; an `MCP-Protocol-Version` naming no version at all gets 400 with -32022 in either era.
"""
from __future__ import annotations

import base64
import binascii
import json
import threading
from contextlib import contextmanager
from typing import Iterator, Sequence

from ..errors import E
from ..exec.context import CancelToken
from ..protocols import jsonrpc, mcp_era
from ..protocols.jsonrpc import Message
from ..protocols.mcp import McpServer
from .http import Watch


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


def answer(server: McpServer, engine: Engine, line: str, watch: Watch,
           headers: Sequence[tuple[bytes, bytes]] = ()) -> str | None | tuple[int, str | None]:
    """One JSON-RPC body -> its reply (with its HTTP status when the request is new-era): under
    the engine lock only when it reaches the database."""
    msg = jsonrpc.decode(line)
    if isinstance(msg, str):
        return msg
    modern = False
    if any(name.startswith(b"mcp-") for name, _ in headers) or mcp_era.request_version(msg) is not None:
        refused, modern = era_headers(msg, headers)
        if refused is not None:
            return 400, refused
    if not server.needs_engine(msg):
        reply = server.handle(msg)
    else:
        ticket = server.admit(msg)  # before waiting: a call sent again while its first runs must know it
        with engine.call() as token, watch(lambda: token.cancel(E.Cancelled.ClientGone)):
            with engine.lock:
                reply = server.handle(msg, token, ticket)
    return (modern_status(reply), reply) if modern else reply


VERSION_HEADER = b"mcp-protocol-version"
METHOD_HEADER = b"mcp-method"
NAME_HEADER = b"mcp-name"
_ROUTING = (VERSION_HEADER, METHOD_HEADER, NAME_HEADER)
_SHOWN = {VERSION_HEADER: "MCP-Protocol-Version", METHOD_HEADER: "Mcp-Method", NAME_HEADER: "Mcp-Name"}
NAMED = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}  # the body member Mcp-Name mirrors
_STATUS = {jsonrpc.PARSE_ERROR: 400, jsonrpc.INVALID_REQUEST: 400, jsonrpc.INVALID_PARAMS: 400,
           mcp_era.HEADER_MISMATCH: 400, mcp_era.UNSUPPORTED_VERSION: 400, jsonrpc.METHOD_NOT_FOUND: 404}


def era_headers(msg: Message, headers: Sequence[tuple[bytes, bytes]]) -> tuple[str | None, bool]:
    """(the refusal line or None, whether the request is new-era)."""
    id = msg.id if msg.has_id else None
    seen: dict[bytes, str] = {}
    twice = None
    for name, value in headers:
        if name in _ROUTING:
            if name in seen and twice is None:
                twice = name
            seen.setdefault(name, value.decode("latin-1").strip())
    version = seen.get(VERSION_HEADER)
    body_version = mcp_era.request_version(msg)
    modern = body_version is not None or version in mcp_era.MODERN_VERSIONS
    if not modern:
        if version is not None and version not in mcp_era.ALL_VERSIONS:
            return mcp_era.unsupported(id, version), False
        return None, False

    def mismatch(text: str) -> tuple[str, bool]:
        return jsonrpc.error_line(id, mcp_era.HEADER_MISMATCH, text), True
    if twice is not None:
        return mismatch(f"{_SHOWN[twice]} header appears more than once")
    if version is None:
        return mismatch("MCP-Protocol-Version header is missing")
    if version not in mcp_era.ALL_VERSIONS:
        return mcp_era.unsupported(id, version), True
    if version != body_version:
        return mismatch("MCP-Protocol-Version header does not match the request's _meta protocol version")
    if not msg.has_id:
        return None, True  # a notification: nothing else is mirrored
    method = seen.get(METHOD_HEADER)
    if method is None:
        return mismatch("Mcp-Method header is missing")
    if method != msg.method:
        return mismatch("Mcp-Method header does not match the request's method")
    key = NAMED.get(msg.method)
    target = msg.params.get(key) if key is not None and isinstance(msg.params, dict) else None
    if isinstance(target, str):
        name = seen.get(NAME_HEADER)
        if name is None:
            return mismatch("Mcp-Name header is missing")
        if _header_text(name) != target:
            return mismatch(f"Mcp-Name header does not match the request's {key!r} parameter")
    return None, True


def _header_text(value: str) -> str | None:
    """A mirrored header's text: plain, or `=?base64?...?=` for text a header cannot carry."""
    if value.startswith("=?base64?") and value.endswith("?=") and len(value) >= 11:
        try:
            return base64.b64decode(value[9:-2], validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return None
    return value


def modern_status(reply: str | None) -> int:
    """The HTTP status of a new-era answer, from its error code (a result is 200)."""
    if reply is None or '"error":{"code":' not in reply:
        return 200
    try:
        doc = json.loads(reply)
    except ValueError:  # a reply the core wrote; never expected
        return 200
    error = doc.get("error") if isinstance(doc, dict) else None
    return _STATUS.get(error.get("code"), 200) if isinstance(error, dict) and "result" not in doc else 200
