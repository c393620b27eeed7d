"""`--expression-memory-limit`: result values -> nothing, or an `ExpressionMemoryLimit` error.

A policy with a memory limit (`relate/policy.py`; `relate serve` sets 256 MiB by default) refuses
to hand back a read's result holding a value larger than the limit.  A value's size is estimated
from what it holds: text by its UTF-8 length, numbers and booleans as 8 bytes, containers as 8
bytes per member plus their members, nodes and relationships by their properties.
The walk is iterative and stops as soon as the running total passes the limit, so a huge value
costs no more than the limit to measure.

This bounds what a call returns; it does not stop the engine from building a large intermediate
value while the statement runs (that needs a check where values are built).
"""
from __future__ import annotations

from ..errors import E
from ..values import Node, Path, Relationship

KIND = "ExpressionMemoryLimit"
DEFAULT_MEMORY_LIMIT = 256 * 1024 * 1024
_WORD = 8


def value_size(value: object, limit: int) -> int:
    """The estimated size of `value` in bytes, or some number over `limit` once it passes it."""
    total = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v) if v.isascii() else len(v.encode("utf-8", "surrogatepass"))
        elif isinstance(v, (bytes, bytearray)):
            total += len(v)
        elif isinstance(v, (list, tuple)):
            total += _WORD * len(v)
            stack.extend(v)
        elif isinstance(v, dict):
            total += _WORD * len(v)
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (Node, Relationship)):
            total += _WORD * 4
            stack.append(v.props)
        elif isinstance(v, Path):
            stack.extend(v.nodes)
            stack.extend(v.rels)
        else:
            total += _WORD
        if total > limit:
            return total
    return total


def check_result_size(rows, limit: int) -> None:
    """Raise `CypherRuntimeError(ExpressionMemoryLimit)` when one value of `rows` is over `limit`."""
    for row in rows:
        for v in row:
            if isinstance(v, (str, list, tuple, dict, bytes, bytearray, Path, Node, Relationship)):
                size = value_size(v, limit)
                if size > limit:
                    raise E.Runtime.ExpressionMemoryLimit(limit=limit)
