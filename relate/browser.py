"""JSON requests from a documentation page -> JSON answers, with no I/O of its own.

The page (web/tryout/relate.js, running this package under Pyodide) sends every request to
`call()` as one JSON string and gets one JSON string back:

    {"op": "mcp",  "line": "<JSON-RPC line>", "read_only": false, "tools": "cypher",
     "result_budget_bytes": 4096, "structured_content": true, "call_timeout_secs": 5}
                                                                  -> {"reply": "<line>" | null}
    {"op": "cli",  "args": ["--mode", "toon", "RETURN 1"], "env": {"CLAUDECODE": "1"}}
                                                                  -> {"stdout", "stderr", "exitCode"}
    {"op": "cell", "statement": "...", "parameters": {...}}      -> a cell result (see `cell`)

The page has ONE database (`:memory:`), created on first use.  Every MCP core shares it: the
read-only one answers as `relate serve --mcp stdio --read-only` would, the other as the writable
server, so the same protocol code that serves stdio natively answers the page.  `tools` is the
value of `relate serve --tools` (default `cypher`), and the three optional fields are
`relate serve`'s `--result-budget-bytes`, `--structured-content` and `--call-timeout-secs` (each
off when absent); one core is made per combination.  Each core passes
its own policy (`policy.SERVED`, read-only for the first) with every call; cells run under the
database's open policy.  A CLI call runs
`relate ARGS` in-process with stdout not a terminal, and like a native process opens whatever
store its arguments name (a fresh `:memory:` one by default), never the page's database.

Parameters go through `Database.run`'s checks like every other door's: an integer outside 64 bits
is refused as `parameter $x: a number is out of range (integers must fit in 64 bits)`.

The build (build/site.py) uses `Page` natively to pre-render the page's cells.
"""
from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace

from .jsonenc import escape_lone_surrogates
from .values import to_json, to_text
from .values.depth import MAX_DEPTH, json_too_deep, too_deep


def summary(rows: int, stats) -> str:
    """The line under a cell's table: `2 rows`, or `(no rows) · nodes created: 5, ...` for a write
    (the non-zero counters, worded as the CLI's table mode words them)."""
    from .output.table import stats_line

    head = "(no rows)" if rows == 0 else "1 row" if rows == 1 else f"{rows} rows"
    counters = stats_line(stats)
    return head + (" · " + counters if counters else "")


def run_cli(args: list[str], env: dict[str, str] | None = None) -> dict:
    """`relate ARGS` with the given environment, stdout not a terminal and empty stdin."""
    from .cli.main import run

    out, err = io.StringIO(), io.StringIO()
    # A native process's stray print() or sys.exit() (argparse's usage errors) still ends up in
    # its stdout/stderr and exit status; route both here the same way.
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = run(list(args), env=dict(env or {}), stdin=io.StringIO(""), stdout=out,
                       stderr=err, stdout_isatty=False)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if exc.code is not None and not isinstance(exc.code, int):
                err.write(f"{exc.code}\n")
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "exitCode": code}


MCP_OPTIONS = ("result_budget_bytes", "structured_content", "call_timeout_secs")  # request fields of `mcp`


class Page:
    """One page's database and the two MCP protocol cores that serve it."""

    def __init__(self) -> None:
        from . import connect
        from .protocols.mcp import McpServer

        self.db = connect()  # `:memory:`, with the open policy the page's cells run under
        # the servers share the database; each passes its own policy with every call
        self._mcp: dict[tuple, McpServer] = {}

    def server(self, read_only: bool = False, tools: str | None = None, result_budget_bytes: int | None = None,
               structured_content: bool = False, call_timeout_secs: int | None = None):
        """The page's MCP core for `--read-only` (or not), `--tools TOOLS`, `--result-budget-bytes`,
        `--structured-content` and `--call-timeout-secs`, made on first use."""
        from .policy import SERVED
        from .protocols.mcp import McpServer
        from .protocols.tool_groups import DEFAULT_TOOLS, parse_tools

        options = DEFAULT_TOOLS if tools is None else parse_tools(tools)
        budget = result_budget_bytes or None
        timeout = call_timeout_secs or None
        key = (bool(read_only), options, budget, bool(structured_content), timeout)
        core = self._mcp.get(key)
        if core is None:
            policy = SERVED if timeout is None else replace(SERVED, time_limit=float(timeout))
            core = self._mcp[key] = McpServer(self.db, policy, read_only=True if read_only else None, tools=options,
                                              result_budget_bytes=budget, structured_content=bool(structured_content))
        return core

    def mcp(self, line: str, read_only: bool = False, tools: str | None = None, **options) -> str | None:
        """One JSON-RPC line -> the reply line (no newline), or None for a notification; `options`
        are `server`'s budget and structured-content keywords."""
        reply = self.server(read_only, tools, **options).handle_line(line)
        return None if reply is None else reply.rstrip("\n")

    def cell(self, statement: str, parameters: dict | None = None, at_time: str | None = None) -> dict:
        """Run a statement on the page's database -> what a cell shows: column names, rows as
        Cypher text (`rows`) and as JSON (`values`), column types, counters and a summary line;
        or the engine's error message."""
        from .errors import RelateError

        try:
            result = self.db.run(self.db.prepare(statement), parameters or {},  # Cypher values, for JSON
                                 at_time=at_time)
        except RelateError as exc:
            return {"error": exc.message, "kind": exc.kind}
        rows = result.rows if result.columns else []  # a statement without RETURN shows no rows
        return {
            "columns": list(result.columns),
            "columnTypes": list(result.column_types) if rows else ["ANY"] * len(result.columns),
            "rows": [[to_text(v) for v in row] for row in rows],
            "values": [[to_json(v) for v in row] for row in rows],
            "stats": result.stats.as_dict(),
            "summary": summary(len(rows), result.stats),
            "warnings": [w.code for w in result.warnings],
            "error": None,
        }

    def call(self, request: dict) -> dict:
        op = request.get("op")
        if op == "mcp":
            options = {k: request[k] for k in MCP_OPTIONS if request.get(k) is not None}
            return {"reply": self.mcp(request["line"], request.get("read_only", False), request.get("tools"),
                                      **options)}
        if op == "cli":
            return run_cli(request.get("args", []), request.get("env") or {})
        if op == "cell":
            return self.cell(request["statement"], request.get("parameters"), request.get("at_time"))
        raise ValueError(f"unknown op {op!r}")


def _int(text: str) -> int:
    # a literal past 20 characters is outside 64 bits, which is all the engine needs to know to
    # refuse it (`parameter $x: a number is out of range ...`); a stand-in keeps int() from
    # reading thousands of digits (it refuses more than 4,300)
    if len(text) > 20:
        return -(1 << 64) if text[0] == "-" else 1 << 64
    return int(text)


_page: Page | None = None


def page() -> Page:
    """The page's one `Page`, made on first use."""
    global _page
    if _page is None:
        _page = Page()
    return _page


def call(request: str) -> str:
    """The page's entry point: a JSON request string -> a JSON answer string.  A request nested
    past the engine's bound is answered before it is decoded: decoding builds the value, and
    freeing one thousands deep kills Pyodide (the request and its parameter map add two levels)."""
    if json_too_deep(request, MAX_DEPTH + 2):
        error = too_deep()
        return json.dumps({"error": error.message, "kind": error.kind})
    return escape_lone_surrogates(json.dumps(page().call(json.loads(request, parse_int=_int)), ensure_ascii=False))
