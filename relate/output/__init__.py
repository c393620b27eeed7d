"""The CLI's output modes: a statement's `Result` -> the text relate prints for it.

`render(result, mode, max_rows=...)` returns a `Rendered` pair: everything for stdout (ending in a
newline) and the warnings for stderr ("" when there are none).  Nothing here writes anywhere.

- `table`: a bordered grid of Cypher-literal cells, for people (`table.py`)
- `envelope`: one JSON object per result set (`envelope.py`)
- `jsonl`: one JSON object per row, then a trailer line with timings (`jsonl.py`)
- `toon`: a TOON row block, then trailer sections with timings (`toon.py`)

Row cap: `max_rows` > 0 prints at most that many rows.  When rows were dropped, stderr gets one
warning line and the JSON and TOON modes also say so in-band (`rowCap` with the kept and total
counts, `truncated`).  `max_rows` of None or 0 prints every row.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..result import Result

# each mode's module is imported when a result is first rendered in it: a process prints in one
MODES = ("table", "envelope", "jsonl", "toon")


@dataclass(frozen=True, slots=True)
class Rendered:
    stdout: str  # complete text including trailing newline(s)
    stderr: str  # warnings with trailing newline, or ""


def cap_warning(kept: int, total: int) -> str:
    """The stderr line for a result cut from `total` rows to `kept`."""
    noun = "row" if kept == 1 else "rows"
    return (f"warning: result truncated to {kept} {noun} (the statement returned {total}); "
            "pass --max-rows 0 for all rows\n")


def render(result: Result, mode: str, *, max_rows: int | None = None) -> Rendered:
    """`result` as printed by `--mode <mode>`, with at most `max_rows` rows when it is > 0."""
    if mode not in MODES:
        raise ValueError(f"unknown output mode {mode!r}; expected one of {', '.join(MODES)}")
    if max_rows is not None and (isinstance(max_rows, bool) or not isinstance(max_rows, int)
                                 or max_rows < 0):
        raise ValueError(f"max_rows must be None or an integer >= 0, not {max_rows!r}")
    rows = result.rows
    total = len(rows)
    stderr = ""
    if max_rows and total > max_rows:
        rows = rows[:max_rows]
        stderr = cap_warning(max_rows, total)
    renderer = importlib.import_module(f"{__name__}.{mode}").render
    return Rendered(renderer(result, rows, total), stderr)


__all__ = ["MODES", "Rendered", "render", "cap_warning"]
