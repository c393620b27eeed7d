"""Compact, key-sorted JSON text for the JSON output modes.

Python value (already in `values.to_json` shape, or plain dicts/lists/numbers) -> one line of
JSON written by `relate.jsonenc` (the writer the MCP replies use too): keys sorted at every
level, no spaces, non-ASCII kept, floats in their shortest form (`1e-5`, `1e20`, `0.5`).

Row tuple + column names -> dict keyed by column with each cell passed through `to_json`.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..jsonenc import dumps
from ..values import to_json

__all__ = ["dumps", "row_object"]


def row_object(columns: Sequence[str], row: Sequence[object]) -> dict:
    """One result row as a JSON-ready object keyed by column name, in column order."""
    return {col: to_json(value) for col, value in zip(columns, row)}
