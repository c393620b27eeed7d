"""Compact, key-sorted JSON text for the JSON output modes.

Python value (already in `values.to_json` shape, or plain dicts/lists/numbers) -> one line of
JSON: keys sorted at every level, no spaces after `,` or `:`, non-ASCII characters written as
themselves.  Floats print as Python's shortest round-trip `repr` (so timings keep every digit).

Row tuple + column names -> dict keyed by column with each cell passed through `to_json`.
"""
from __future__ import annotations

import json
from collections.abc import Sequence

from ..values import to_json


def dumps(obj: object) -> str:
    """`obj` as one compact line of JSON with sorted keys."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def row_object(columns: Sequence[str], row: Sequence[object]) -> dict:
    """One result row as a JSON-ready object keyed by column name, in column order."""
    return {col: to_json(value) for col, value in zip(columns, row)}
