"""The listeners of one `relate serve` process -> `doors.run_doors`, sharing one engine.

`Front(db, ...)` collects what the flags ask for (`mcp`, `bolt`, `http`), then `run` serves them
together: one engine lock (`mcp_http.Engine`), one `Transactions` (one writer for every door; MCP's
tools auto-commit through `transactions.AutoCommit`), one credential, one connection limit.
"""
from __future__ import annotations

from typing import Callable, TextIO

from ..database import Database
from ..protocols.mcp import McpServer
from ..protocols.query_api import QueryApi
from ..transactions import AutoCommit, Transactions
from .auth import ResolvedAuth
from .doors import Door, run_doors, url_host
from .http import HttpLimits, McpHttp
from .listener import ConnectionLimit
from .mcp_http import Engine, answer


class Front:
    def __init__(self, db: Database, host: str, limits: HttpLimits, *, tx_timeout: float = 60.0,
                 origins: frozenset[str] = frozenset(), tools=None) -> None:
        self.db = db
        self.host = host
        self.limits = limits
        self.engine = Engine()
        self.txs = Transactions(db)
        self.query = QueryApi(self.txs, lock=lambda: self.engine.lock, tx_timeout=tx_timeout)
        self.origins = origins
        self.tools = tools
        self.doors: list[Door] = []
        self.kinds: list[str] = []

    def mcp(self, port: int, text: str) -> None:
        kw = {} if self.tools is None else {"tools": self.tools}
        server = McpServer(AutoCommit(self.txs), self.db.policy, **kw)  # type: ignore[arg-type]
        engine, limits = self.engine, self.limits

        def serve(credential, stopping):
            from ..protocols.mcp_graph import ANONYMOUS, Caller
            server.set_caller(ANONYMOUS if credential is None else Caller(credential.user))
            return McpHttp(lambda line, watch: answer(server, engine, line, watch), credential, limits,
                           stopping).serve_connection
        self._add("mcp", Door(f"--mcp {text}", port, serve, lambda p, mode: (
            f"serve: MCP (streamable HTTP) listening on http://{url_host(self.host)}:{p} (auth: {mode})")))

    def bolt(self, port: int, text: str) -> None:
        from .bolt import BoltServer

        def serve(credential, stopping):
            return BoltServer(self.txs, self.engine, credential, stopping, self.origins).serve_connection
        self._add("bolt", Door(f"--bolt {text}", port, serve, lambda p, mode: (
            f"serve: Bolt listening on bolt://{url_host(self.host)}:{p} (auth: {mode})")))

    def http(self, port: int, text: str) -> None:
        from .query_http import QueryHttp, start_reaper

        def serve(credential, stopping):
            start_reaper(self.query, lambda: self.engine.lock, stopping)
            return QueryHttp(self.query, credential, self.limits, stopping, self.origins,
                             self.engine).serve_connection
        self._add("http", Door(f"--http {text}", port, serve, lambda p, mode: (
            f"serve: Query API (HTTP) listening on http://{url_host(self.host)}:{p} (auth: {mode})")))

    def _add(self, kind: str, door: Door) -> None:
        self.kinds.append(kind)
        self.doors.append(door)

    def _bound(self, ports: list[int]) -> None:
        host = url_host(self.host)
        found = dict(zip(self.kinds, ports))
        extra: dict = {}
        if "bolt" in found:
            extra["bolt_routing"] = f"neo4j://{host}:{found['bolt']}"
            extra["bolt_direct"] = f"bolt://{host}:{found['bolt']}"
        if "http" in found:
            extra["query"] = f"http://{host}:{found['http']}/db/{{databaseName}}/query/v2"
        self.query.discovery.update(extra)

    def run(self, *, resolve_auth: Callable[[], ResolvedAuth], max_connections: int, stderr: TextIO,
            preamble: tuple[str, ...] = ()) -> int:
        stops: tuple[Callable[[], None], ...] = (self.engine.stop,)
        if "http" in self.kinds:
            stops += (self.query.close,)
        return run_doors(self.doors, host=self.host, resolve_auth=resolve_auth,
                         limit=ConnectionLimit(max_connections), stderr=stderr, preamble=preamble,
                         on_stop=stops, on_bound=self._bound)
