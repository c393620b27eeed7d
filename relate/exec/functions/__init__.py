"""The scalar function table: lower-cased name -> (python function, min args, max args).

Each function takes already-evaluated Cypher values and returns one; null in gives null out
unless the function says otherwise (`coalesce`, the `...OrNull` conversions).  The families live
in their own modules: conversions, strings, lists, numbers, graph elements, and the scalar
functions of Neo4j 5 (nullIf, valueType, randomUUID, timestamp).  Aggregates are not
here (`exec/aggregates.py`), nor are the compile-time argument types (`semantic/types.py`).

The functions whose result can outgrow their arguments (`range`, `replace`, `split`) also have a
form that takes the run's memory budget first (`exec/value_size.py`) and measures the result
before building it: `lookup_within`.

A wrong argument type that reaches a function at run time is a `TypeError` with the detail
`InvalidArgumentValue` (static checking already refused the ones it could see).
"""
from __future__ import annotations

from .convert import CONVERT
from .graph import GRAPH
from .lists import LISTS, LISTS_WITHIN
from .numbers import NUMBERS
from .scalar import SCALAR
from .strings import STRINGS, STRINGS_WITHIN

FUNCTIONS: dict[str, tuple] = {}
for _family in (CONVERT, STRINGS, LISTS, NUMBERS, GRAPH, SCALAR):
    FUNCTIONS.update(_family)


def lookup(name: str) -> tuple | None:
    """The table entry for a lower-cased function name; temporal and spatial functions
    (`date()`, `duration.between()`, `point()`, ...) come from `relate.temporal`, loaded on first use."""
    entry = FUNCTIONS.get(name)
    if entry is None:
        from ... import temporal
        entry = temporal.FUNCTIONS.get(name)
    return entry


WITHIN: dict = {**LISTS_WITHIN, **STRINGS_WITHIN}


def lookup_within(name: str):
    """`f(budget, *args)` for a lower-cased function name whose result is measured, else None."""
    return WITHIN.get(name)
