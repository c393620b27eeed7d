"""`--mode jsonl`: one result set -> one JSON line per row, then one trailer line.

Each row line is a compact object keyed by column (keys sorted) whose values are in
`values.to_json` shape.  The trailer line always carries `planCache` and `timings`, and adds,
only when they apply:

- `notifications`: `Notification.as_dict()` items, when the plan produced any
- `plan`: the `relate.plan/v1` document, for EXPLAIN
- `rowCap` + `truncated: true`: `{"kept": K, "total": T}` when the row cap dropped rows
- `stats`: the 11 mutation counters, when the statement changed something

A result with no rows prints the trailer line alone.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..result import Result
from .jsonout import dumps, row_object


def trailer(result: Result, kept: int, total: int) -> dict:
    """The closing object printed after the rows."""
    doc: dict = {"planCache": result.plan_cache, "timings": result.timings.as_dict()}
    if result.all_notifications:
        doc["notifications"] = [n.as_dict() for n in result.all_notifications]
    if result.explained or result.profiled:
        doc["plan"] = result.plan_json()
    if kept < total:
        doc["rowCap"] = {"kept": kept, "total": total}
        doc["truncated"] = True
    if result.stats.contains_updates:
        doc["stats"] = result.stats.as_dict()
    return doc


def render(result: Result, rows: Sequence[tuple], total: int) -> str:
    cols = result.columns
    lines = [dumps(row_object(cols, row)) for row in rows]
    lines.append(dumps(trailer(result, len(rows), total)))
    return "\n".join(lines) + "\n"
