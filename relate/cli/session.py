"""Statements on an open store -> result sets and failures printed in one output mode.

A `Session` holds what every statement of one `relate` run shares: the store (opened with the
run's policy, e.g. `--safe`, which the database checks), the output mode, the row cap, the
parameters and the timeout, and in the interactive shell the cancel token Ctrl-C trips.  The
one-shot command and the interactive shell both run statements through it.

Per statement: run it with the deadline `--timeout` sets (a stopped statement rolls back), then
print its result set with the mode's renderer.  Result sets follow each other directly in the
JSON modes (each is self-delimiting); in the table and TOON modes a blank line separates them.
The row-cap warning goes to stderr.

A failure prints `Error: <message>` on stderr and, in the JSON and TOON modes, the error object
on stdout (`failure.py`); the table mode, read by people, also quotes the statement line with a
caret under the error's position.  In a script the first failure ends the run: the statements
before it stay committed, the ones after it do not run.
"""
from __future__ import annotations

import time
from typing import TextIO

from ..errors import E, RelateError
from ..output import render
from .failure import error_object, error_text, excerpt, relocate
from .script import Statement


class Session:
    def __init__(self, db, *, mode: str, max_rows: int | None, parameters: dict, timeout: float | None,
                 stdout: TextIO, stderr: TextIO, summary: bool = False, at_time: str | None = None) -> None:
        self.db = db
        self.at_time = at_time  # --at-time: every statement reads as of that valid time
        self.mode = mode
        self.max_rows = max_rows
        self.parameters = parameters
        self.timeout = timeout
        self.stdout = stdout
        self.stderr = stderr
        self.summary = summary  # the shell adds a row-count line under each table
        self.printed = False  # whether a result set was printed yet (for separators)
        self.cancel = None  # the interactive shell's `CancelToken` while a typed line runs (Ctrl-C)

    def run_script(self, statements: list[tuple[str, Statement]]) -> int:
        """Run `(source, statement)` pairs in order; stop at the first failure.  -> exit code."""
        count = len(statements)
        for number, (source, statement) in enumerate(statements, 1):
            code = self.execute(statement, source, number if count > 1 else None)
            if code:
                if count > 1:
                    self.stderr.write(_script_note(number, count))
                return code
        return 0

    def execute(self, statement: Statement, source: str, number: int | None = None) -> int:
        """Run one statement and print its result set or its failure.  -> exit code."""
        started = time.perf_counter_ns()
        try:
            prepared = self.db.prepare(statement.text)
            result = self.db.run(prepared, self.parameters, started=started, timeout=self.timeout,
                                 cancel=self.cancel, at_time=self.at_time)
            out = render(result, self.mode, max_rows=self.max_rows or None)
        except RelateError as e:
            return self.fail(e, statement, source, number)
        except Exception as e:  # a bug in relate: report it as a typed failure, not a traceback
            return self.fail(E.Internal.Internal(f"{type(e).__name__}: {e}"), statement, source, number)
        if out.stderr:
            self.stderr.write(out.stderr)
        text = out.stdout
        if self.summary and self.mode == "table" and result.columns and not result.explained:
            n = len(result.rows)
            text += f"{n} row{'' if n == 1 else 's'}\n"
        if self.printed and self.mode in ("table", "toon") and not self.summary:
            text = "\n" + text
        self.stdout.write(text)
        self.printed = True
        return 0

    def fail(self, e: RelateError, statement: Statement | None, source: str, number: int | None = None) -> int:
        position = relocate(e.position, statement, source)
        lines = [f"Error: {e.message}"]
        if e.kind == "Interrupted":
            lines.insert(0, "")  # the terminal echoed ^C where the cursor was: start a fresh line
        if self.mode == "table" and position is not None:
            lines += excerpt(source, position)
        self.stderr.write("\n".join(lines) + "\n")
        text = error_text(error_object(e, position, number), self.mode)
        if text and self.printed and self.mode == "toon":
            text = "\n" + text  # its own TOON document, not a key of the previous result's
        self.stdout.write(text)
        return e.exit_code


def _span(first: int, last: int) -> str:
    return f"statement {first}" if first == last else f"statements {first} to {last}"


def _script_note(number: int, count: int) -> str:
    """Which statements of a script took effect when statement `number` failed."""
    parts = [f"statement {number} of {count} failed"]
    if number > 1:
        parts.append(f"{_span(1, number - 1)} ran")
    if number < count:
        parts.append(f"{_span(number + 1, count)} did not run")
    return "(" + "; ".join(parts) + ")\n"
