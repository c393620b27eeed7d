"""`server/discover` (MCP 2026-07-28): the server's versions, capabilities and identity in one
answer, asked before (or instead of) anything else.

The result: `supportedVersions` (the per-request-envelope versions; the handshake ones stay
reachable through `initialize`), `capabilities` (`{"tools": {}}`, as `initialize` says),
`serverInfo`, the same identity in `_meta["io.modelcontextprotocol/serverInfo"]` (where the
revision's schema puts it), and `instructions` naming the budgets a call runs under when any is
on.  `mcp_era.complete` adds `resultType`, `ttlMs` and `cacheScope`.
"""
from __future__ import annotations

from ..version import __version__
from .mcp_era import MODERN_VERSIONS, SERVER_INFO_KEY

SERVER_INFO = {"name": "relate-mcp", "version": __version__}


def discover_result(instructions: str | None) -> dict:
    result: dict = {
        "_meta": {SERVER_INFO_KEY: dict(SERVER_INFO)},
        "capabilities": {"tools": {}},
        "serverInfo": dict(SERVER_INFO),
        "supportedVersions": list(MODERN_VERSIONS),
    }
    if instructions:
        result["instructions"] = instructions
    return result
