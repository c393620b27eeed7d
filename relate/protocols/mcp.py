"""The MCP protocol core: one JSON-RPC line in, one reply line (or nothing) out.

Sans-I/O: the stdio shell, the HTTP listener and the browser all feed `McpServer.handle_line`,
which answers each method from one table (`McpServer.methods`, method name -> handler).
Tools come in groups (`tool_groups.py`, `relate serve --tools`); the default group `cypher` is
`write_cypher` (listed only on a writable store), `read_cypher`, `get_schema`.  Each Cypher
call is planned first and its query type read from the plan; `read_cypher` refuses writes and
schema statements, `write_cypher` refuses reads, before anything runs (the tools' contract).  Then
the database runs it under the server's `Policy` (`policy.py`: hop bound, `--safe`, read-only,
memory limit), passed with every call so that two servers can share one database.  A refusal or
engine error is a tool result with `isError: true`; internal failures show only
`Error: internal error` to the caller, and their traceback goes to the `relate.mcp` logger.

The database is not thread-safe: a transport that serves calls concurrently holds one engine lock
around the calls that reach it, the messages for which `needs_engine` is true (`tools/call`).  The
others (`ENGINE_FREE` methods, notifications, unknown methods, undecodable lines) read only fields
fixed when the server was made, so they may be answered on any thread while a statement runs.  A
`CancelToken` handed to `handle` stops that call's statement once the transport cancels it.

The `graph` group (`graph_tools.py`, handled in `mcp_graph.py`) and the `search` group
(`search_tools.py`, handled in `mcp_search.py`) answer their refusals as JSON-RPC errors instead
of `isError` results, as the 1.4 tool line does.
"""
from __future__ import annotations

import logging
from dataclasses import replace

from ..version import __version__
from ..database import Database
from ..errors import E, RelateError
from ..exec.context import CancelToken
from ..policy import SERVED, Policy
from ..result import Result
from ..values import to_json
from ..values.ints import INT_MAX, INT_MIN, PARAMETER_RANGE
from . import jsonrpc
from .jsonrpc import _dumps as _json
from .jsonrpc import Message
from .graph_tools import GRAPH_TOOL_NAMES, GRAPH_TOOLS
from .mcp_graph import LOCAL, Caller, GraphTools, RpcError
from .mcp_search import SearchTools
from .search_tools import SEARCH_TOOL_NAMES, SEARCH_TOOLS
from .tool_groups import DEFAULT_TOOLS, ToolOptions
from .tools import TOOL_GET_SCHEMA, TOOL_READ, TOOL_WRITE, tool_list

DEFAULT_PROTOCOL = "2024-11-05"
ENGINE_FREE = frozenset({"initialize", "ping", "tools/list"})  # answered without the database
READ_ONLY_REFUSAL = "Only MATCH queries are allowed for read-query"
WRITE_ONLY_REFUSAL = "Only write queries are allowed for write-query"

log = logging.getLogger("relate.mcp")


class ToolError(Exception):
    """A tool call that fails: its text goes back as the tool result with isError true."""


def envelope(result: Result, *, rows: bool = True) -> dict:
    """A statement result as the MCP tools report it (keys are sorted when serialised)."""
    t = result.timings
    cols = list(result.columns) if rows else []
    return {
        "columnTypes": result.column_types if rows else [],
        "columns": cols,
        "elapsed_ms": t.elapsed_ms,
        "error": None,
        "execute_ms": t.execute_ms,
        "lex_parse_ms": t.lex_parse_ms,
        "lower_ms": t.lower_ms,
        "notifications": [n.as_dict() for n in result.notifications],
        "parse_ms": t.parse_ms,
        "plan": result.plan_json(),
        "plan_cache": result.plan_cache,
        "plan_ms": t.plan_ms,
        "result_generation_ms": t.result_generation_ms,
        "rewrite_ms": t.rewrite_ms,
        "rows": [{c: to_json(v) for c, v in zip(cols, row)} for row in result.rows] if rows else [],
        "stats": result.stats.as_dict(),
    }


class McpServer:
    """Serves one open store to MCP hosts, every call under `policy` (default `SERVED`); the
    keyword arguments replace single fields of it.  `tools`: the tool groups offered (default
    `cypher` alone); `caller`: who calls (`mcp_graph.Caller`; the HTTP door names its credential)."""

    def __init__(self, db: Database, policy: Policy = SERVED, *, read_only: bool | None = None,
                 safe: bool | None = None, max_traversal_depth: int | None = None,
                 expression_memory_limit: int | None = None, tools: ToolOptions = DEFAULT_TOOLS,
                 caller: Caller = LOCAL) -> None:
        fields = {"read_only": read_only, "safe": safe, "max_traversal_depth": max_traversal_depth,
                  "expression_memory_limit": expression_memory_limit}
        policy = replace(policy, **{k: v for k, v in fields.items() if v is not None})
        if db.read_only and not policy.read_only:
            policy = replace(policy, read_only=True)
        self.db = db
        self.policy = policy
        self.read_only = policy.read_only  # no write_cypher tool
        self.tools = tools
        self.graph = GraphTools(db, policy, caller) if tools.offers("graph") else None
        self.search = SearchTools(db, policy) if tools.offers("search") else None
        listed = tool_list(self.read_only) if tools.offers("cypher") else []
        self.tool_list = (listed + (list(GRAPH_TOOLS) if self.graph is not None else [])
                          + (list(SEARCH_TOOLS) if self.search is not None else []))
        self.methods = {
            "initialize": self._initialize,
            "ping": self._ping,
            "tools/list": self._tools_list,
            "tools/call": self._tools_call,
        }

    # ------------------------------------------------------------------ framing
    def handle_line(self, line: str, cancel: CancelToken | None = None) -> str | None:
        msg = jsonrpc.decode(line)
        if isinstance(msg, str):
            return msg
        return self.handle(msg, cancel)

    def needs_engine(self, msg: Message) -> bool:
        """Does answering `msg` read or run the database?  (A method added to the table needs it
        unless it is listed in `ENGINE_FREE`.)"""
        return msg.has_id and msg.method in self.methods and msg.method not in ENGINE_FREE

    def set_caller(self, caller: Caller) -> None:
        """Who calls this server's tools (the HTTP door, once it knows its credential)."""
        if self.graph is not None:
            self.graph.caller = caller

    def admit(self, msg: Message) -> str | None:
        """Called by a transport that answers calls concurrently, as a call arrives and before it
        waits for the engine -> the ticket to pass to `handle` (idempotency keys: a second call
        with a key whose first call is running must learn it was in flight)."""
        if self.graph is None or msg.method != "tools/call" or not isinstance(msg.params, dict):
            return None
        if msg.params.get("name") not in GRAPH_TOOL_NAMES:
            return None
        return self.graph.arrive(msg.params.get("arguments"))

    def handle(self, msg: Message, cancel: CancelToken | None = None, ticket: str | None = None) -> str | None:
        method = msg.method
        if not msg.has_id:
            return None  # notifications get no reply
        handler = self.methods.get(method)
        if handler is None:
            return jsonrpc.error_line(msg.id, jsonrpc.METHOD_NOT_FOUND, f"Method not found: {method}")
        try:
            if method == "tools/call":
                return self._tools_call(msg, cancel, ticket)
            return handler(msg, cancel)
        except Exception:  # a bug must not take the server down or leak detail; the operator sees it
            log.exception("internal error answering %s", method)
            return jsonrpc.error_line(msg.id, jsonrpc.INTERNAL_ERROR, "internal error")

    # ------------------------------------------------------------------ methods: Message -> reply line
    def _initialize(self, msg: Message, cancel: CancelToken | None) -> str:
        params = msg.params
        version = DEFAULT_PROTOCOL
        if isinstance(params, dict) and isinstance(params.get("protocolVersion"), str):
            version = params["protocolVersion"]
        return jsonrpc.result_line(msg.id, {"capabilities": {"tools": {}}, "protocolVersion": version,
                                            "serverInfo": {"name": "relate-mcp", "version": __version__}})

    def _ping(self, msg: Message, cancel: CancelToken | None) -> str:
        return jsonrpc.result_line(msg.id, {})

    def _tools_list(self, msg: Message, cancel: CancelToken | None) -> str:
        return jsonrpc.result_line(msg.id, {"tools": self.tool_list})

    def _tools_call(self, msg: Message, cancel: CancelToken | None, ticket: str | None = None) -> str:
        params = msg.params if isinstance(msg.params, dict) else {}
        name = params.get("name")
        if not isinstance(name, str):
            return jsonrpc.error_line(msg.id, jsonrpc.INVALID_PARAMS,
                                      'Invalid params: tools/call needs a string "name"')
        grouped = self.graph is not None and name in GRAPH_TOOL_NAMES
        searched = self.search is not None and name in SEARCH_TOOL_NAMES
        if grouped or searched:
            arguments = params.get("arguments")
            arguments = arguments if isinstance(arguments, dict) else {}
            try:
                if searched:
                    payload = self.search.call(name, arguments)  # type: ignore[union-attr]
                else:
                    payload = self.graph.call(name, arguments, cancel, ticket)  # type: ignore[union-attr]
            except RpcError as e:
                return jsonrpc.error_line(msg.id, e.code, e.message, e.data)
            return jsonrpc.result_line(msg.id, {"content": [{"text": _json(payload), "type": "text"}],
                                                "isError": False})
        return jsonrpc.result_line(msg.id, self._call(name, params.get("arguments"), cancel))

    # ------------------------------------------------------------------ tools
    def _call(self, name: str, arguments, cancel: CancelToken | None = None) -> dict:
        try:
            text = self._tool_text(name, arguments if isinstance(arguments, dict) else {}, cancel)
            return {"content": [{"text": text, "type": "text"}], "isError": False}
        except ToolError as e:
            return {"content": [{"text": str(e), "type": "text"}], "isError": True}

    def _tool_text(self, name: str, args: dict, cancel: CancelToken | None) -> str:
        if not self.tools.offers("cypher"):
            raise ToolError(f"unknown tool '{name}'")
        if name == TOOL_GET_SCHEMA:
            return _json(self.db.schema(_sample_size(args)))
        if name == TOOL_READ or (name == TOOL_WRITE and not self.read_only):
            return _json(self._cypher(name, args, cancel))
        raise ToolError(f"unknown tool '{name}'")

    def _cypher(self, tool: str, args: dict, cancel: CancelToken | None) -> dict:
        statement = args.get("statement")
        if not isinstance(statement, str):
            raise ToolError('invalid params: missing string "statement"')
        params = args.get("parameters")
        if params is None:
            params = {}
        elif not isinstance(params, dict):
            raise ToolError('invalid params: "parameters" must be an object')
        try:
            prepared = self.db.prepare(statement)
            if prepared.statement.explain or prepared.statement.profile:
                # the tool plans every call as `EXPLAIN <statement>`; a second one cannot parse
                word = "EXPLAIN" if prepared.statement.explain else "PROFILE"
                raise E.Syntax.ParseError(f'unexpected token "{word}"')
            qtype = prepared.query_type
            if tool == TOOL_READ and qtype != "r":
                raise ToolError(READ_ONLY_REFUSAL)
            if tool == TOOL_WRITE and qtype == "r":
                raise ToolError(WRITE_ONLY_REFUSAL)
            result = self.db.run(prepared, params, notifications=True, policy=self.policy, cancel=cancel)
        except ToolError:
            raise
        except RelateError as e:
            if e.internal:
                if e.kind != "WriteFailed":  # the store has logged the file and the OS error
                    log.error("internal error in %s: %s", tool, e.message, exc_info=True)
                raise ToolError("Error: internal error") from None
            raise ToolError(f"Error: {e.message}") from None
        except RecursionError:
            log.exception("internal error in %s", tool)
            raise ToolError("Error: internal error") from None
        return envelope(result, rows=tool == TOOL_READ)


def _sample_size(args: dict) -> int:
    n = args.get("sample_size")
    if n is None:
        return 1000
    if isinstance(n, bool) or not isinstance(n, int):
        if isinstance(n, float) and n.is_integer():
            n = int(n)
        else:
            raise ToolError("invalid params: sample_size must be an integer")
    if not INT_MIN <= n <= INT_MAX:
        raise ToolError(f"invalid params: sample_size: {PARAMETER_RANGE}")
    if n < -1:
        raise ToolError(f"invalid params: sample_size must be -1 or non-negative, got {n}")
    return n
