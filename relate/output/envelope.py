"""`--mode envelope`: one result set -> one line holding one JSON object.

Keys (sorted, as every JSON surface of relate prints them):

- `columnTypes`: one type name per column, from the first row (`ANY` when there are no rows)
- `columns`: the column names in RETURN order, present even for an empty result
- `notifications`: `Notification.as_dict()` items
- `plan`: the `relate.plan/v1` document; only for EXPLAIN
- `planCache`: the plan-cache outcome string
- `rowCap`: `{"kept": K, "total": T}`; only when the row cap dropped rows
- `rows`: one object per printed row, keyed by column, cells in `values.to_json` shape
- `stats`: the 11 mutation counters; only when the statement changed something
- `timings`: milliseconds per phase
- `truncated`: whether the row cap dropped rows (always present)
"""
from __future__ import annotations

from collections.abc import Sequence

from ..result import Result
from .jsonout import dumps, row_object


def document(result: Result, rows: Sequence[tuple], total: int) -> dict:
    """The envelope object for `result`, of which only `rows` are printed out of `total`."""
    cols = result.columns
    truncated = len(rows) < total
    doc: dict = {
        "columnTypes": result.column_types,
        "columns": list(cols),
        "notifications": [n.as_dict() for n in result.all_notifications],
        "planCache": result.plan_cache,
        "rows": [row_object(cols, row) for row in rows],
        "timings": result.timings.as_dict(),
        "truncated": truncated,
    }
    if truncated:
        doc["rowCap"] = {"kept": len(rows), "total": total}
    if result.explained or result.profiled:
        doc["plan"] = result.plan_json()
    if result.stats.contains_updates:
        doc["stats"] = result.stats.as_dict()
    return doc


def render(result: Result, rows: Sequence[tuple], total: int) -> str:
    return dumps(document(result, rows, total)) + "\n"
