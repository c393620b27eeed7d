"""The `relate` command: argv -> output text and an exit code.

`run(argv, env=..., stdin=..., stdout=..., stderr=..., stdout_isatty=...)` does all the work
against the streams it is given, so the browser build calls it with string buffers and tests call
it in-process; `entry()` binds it to the real process.  Network and stdio serving code is imported
only when `relate serve` runs.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Mapping, TextIO

from .. import __version__
from ..errors import EXIT_OTHER, EXIT_USAGE, RelateError, StorageError, UsageError
from ..output import MODES, render
from ..output.jsonout import dumps
from .agent import agent_mode

MEMORY = ":memory:"
AGENT_ROW_CAP = 100


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, and writes help where it is told."""

    def __init__(self, *a, out: TextIO | None = None, **kw) -> None:
        super().__init__(*a, **kw)
        self._out = out

    def error(self, message: str):
        raise UsageError(f"Error: {message}")

    def exit(self, status=0, message=None):
        if message:
            (self._out or io.StringIO()).write(message)
        raise _Exit(status)

    def _print_message(self, message, file=None):
        if message and self._out is not None:
            self._out.write(message)


class _Exit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def _mode(value: str) -> str:
    # checked here rather than with argparse `choices`, whose wording differs between Python
    # versions (the browser runs 3.14), so every surface prints the same message
    if value not in MODES:
        raise UsageError(f"Error: argument --mode: invalid choice: {value!r} (choose from {', '.join(MODES)})")
    return value


def build_parser(out: TextIO | None = None) -> _Parser:
    p = _Parser(prog="relate", out=out, description="An embedded Cypher graph database for agents.")
    p.add_argument("--version", action="version", version=f"relate {__version__}")
    p.add_argument("--database", default=MEMORY, metavar="PATH",
                   help="the store: :memory: (default), a .rl file, or a directory")
    p.add_argument("--mode", type=_mode, help="output mode (default: table on a terminal, jsonl in a pipe)")
    p.add_argument("--max-rows", type=int, metavar="N", help="print at most N rows per statement (0: all)")
    p.add_argument("--read-only", action="store_true", help="open the store read-only")
    p.add_argument("--no-agent-mode", action="store_true", help="ignore agent-harness detection")
    p.add_argument("statement", nargs="?", help="the Cypher statement (read from stdin when absent)")
    return p


def run(argv: list[str], *, env: Mapping[str, str] | None = None, stdin: TextIO | None = None,
        stdout: TextIO | None = None, stderr: TextIO | None = None, stdout_isatty: bool = False) -> int:
    env = os.environ if env is None else env
    stdin = stdin or io.StringIO("")
    stdout = stdout or io.StringIO()
    stderr = stderr or io.StringIO()
    try:
        if argv and argv[0] == "serve":
            from .serve import serve
            return serve(argv[1:], stdin, stdout, stderr)
        return _statement(argv, env, stdin, stdout, stderr, stdout_isatty)
    except _Exit as e:
        return e.code
    except UsageError as e:
        stderr.write(e.message + "\n")
        return EXIT_USAGE


def _statement(argv, env, stdin, stdout, stderr, isatty) -> int:
    args = build_parser(stdout).parse_args(argv)
    agent = agent_mode(env, isatty, args.no_agent_mode)
    mode = args.mode or ("toon" if agent else ("table" if isatty else "jsonl"))
    max_rows = args.max_rows
    if max_rows is not None and max_rows < 0:
        raise UsageError("Error: --max-rows takes a non-negative number")
    if max_rows is None and agent:
        max_rows = AGENT_ROW_CAP
    text = args.statement
    if text is None:
        text = stdin.read()
        if not text.strip():
            raise UsageError("Error: no statement given (pass one as an argument or on stdin)")
    from ..database import Database
    try:
        db = Database(args.database, read_only=args.read_only)
    except StorageError as e:
        stderr.write(f"Error: Failed to open Relate: {e.message}\n")
        return e.exit_code
    try:
        result = db.execute(text)
    except RelateError as e:
        return _fail(e, mode, stdout, stderr)
    finally:
        db.close()
    out = render(result, mode, max_rows=max_rows or None)
    if out.stderr:
        stderr.write(out.stderr)
    stdout.write(out.stdout)
    return 0


def error_object(e: RelateError) -> dict:
    """The typed error an agent branches on, printed in the JSON modes."""
    pos = None
    if e.position is not None:
        pos = {"column": e.position.column, "line": e.position.line, "offset": e.position.offset}
    return {"error": {"code": f"Relate.{e.tck_type}.{e.kind}", "kind": e.kind, "message": e.message,
                      "phase": e.phase, "position": pos, "retryable": e.retryable}}


def _fail(e: RelateError, mode: str, stdout, stderr) -> int:
    stderr.write(f"Error: {e.message}\n")
    if mode in ("envelope", "jsonl", "toon"):
        stdout.write(dumps(error_object(e)) + "\n")
    return e.exit_code


def entry() -> None:
    """Console-script entry point."""
    try:
        isatty = sys.stdout.isatty()
    except (AttributeError, ValueError):
        isatty = False
    code = run(sys.argv[1:], env=os.environ, stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr,
               stdout_isatty=isatty)
    sys.stdout.flush()
    sys.exit(code)
