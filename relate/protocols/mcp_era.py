"""Which MCP era a request belongs to, and how a new-era (2026-07-28) reply differs from a legacy one.

relate serves two eras on one server.  The legacy era opens with `initialize` (protocol versions
2024-11-05 to 2025-11-25) and its answers are the reference pages' bytes.  The 2026-07-28 revision
drops the handshake: every request carries its protocol version in
`params._meta["io.modelcontextprotocol/protocolVersion"]` (with the client's capabilities and
identity beside it), and every result says `resultType`.  relate is stateless, so the era is read
per request (`request_version`): a request whose `_meta` names a protocol version is new-era,
`initialize` always legacy, everything else legacy.

New-era rules applied here (sans-I/O; the HTTP header checks are `net/mcp_http.py`'s):

* a `_meta` protocol version that is not a string -> -32602; one this server does not serve ->
  -32022 `Unsupported protocol version` with `data.supported` (every version it answers, the
  handshake ones included, so a dual-era client knows both doors) and `data.requested`;
* a result gains `resultType: "complete"`; the cacheable ones (`tools/list`, `server/discover`)
  gain `ttlMs` and `cacheScope` too.  The tool list is fixed when the server is made and the same
  for every caller, hence `public`.

The client capabilities and identity are read by nothing (relate asks nothing of its clients), so
a request that leaves them out is served rather than refused.
"""
from __future__ import annotations

from .jsonrpc import INVALID_PARAMS, Message, error_line

MODERN_VERSION = "2026-07-28"
MODERN_VERSIONS: tuple[str, ...] = (MODERN_VERSION,)
HANDSHAKE_VERSIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ALL_VERSIONS: tuple[str, ...] = HANDSHAKE_VERSIONS + MODERN_VERSIONS

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

HEADER_MISMATCH = -32020
UNSUPPORTED_VERSION = -32022

CACHEABLE = frozenset({"tools/list", "server/discover"})
TTL_MS = 300_000  # five minutes: the list only changes when the server restarts with other flags
CACHE_SCOPE = "public"


def request_version(msg: Message) -> object:
    """The new-era protocol version a request names in `params._meta`, or None for a legacy
    request (no `_meta` version, or `initialize`, which the new revision does not have)."""
    params = msg.params
    if type(params) is not dict:
        return None
    meta = params.get("_meta")
    if type(meta) is not dict or VERSION_KEY not in meta or msg.method == "initialize":
        return None
    return meta[VERSION_KEY]


def unsupported(id: object, requested: object) -> str:
    """The -32022 reply naming what this server serves."""
    data: dict = {"supported": list(ALL_VERSIONS)}
    if isinstance(requested, str):
        data["requested"] = requested
    return error_line(id, UNSUPPORTED_VERSION, "Unsupported protocol version", data)


def version_refusal(msg: Message, version: object) -> str | None:
    """The reply refusing a new-era request's `_meta` version, or None when it is served."""
    if not isinstance(version, str):
        return error_line(msg.id, INVALID_PARAMS,
                          f"Invalid params: _meta[\"{VERSION_KEY}\"] must be a string")
    if version not in MODERN_VERSIONS:
        return unsupported(msg.id, version)
    return None


def complete(method: str, result: dict) -> dict:
    """A result as the new revision writes it."""
    out = dict(result)
    out["resultType"] = "complete"
    if method in CACHEABLE:
        out["ttlMs"] = TTL_MS
        out["cacheScope"] = CACHE_SCOPE
    return out
