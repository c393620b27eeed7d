"""What kind of Cypher value a Python object is: the `columnTypes` name, the number tests, and
the door to `relate.temporal` for the kinds it owns.

A boolean is never a number here although Python's `bool` is an `int`: `1 = true` is false in
Cypher and `true + 1` is a type error.
"""
from __future__ import annotations

from typing import Protocol, cast

from .entities import Node, Path, Relationship


class Temporal(Protocol):
    """What the value layer reads of `relate.temporal` (the temporal and spatial kinds)."""

    VALUE_TYPES: tuple[type, ...]

    def is_value(self, v: object) -> bool: ...
    def type_name(self, v: object) -> str: ...
    def render(self, v: object) -> str: ...
    def equals(self, a: object, b: object) -> bool: ...
    def compare(self, a: object, b: object) -> int | None: ...
    def order_key(self, v: object) -> tuple[object, ...]: ...
    def negate(self, a: object) -> object: ...


_TEMPORAL: Temporal | None = None


def temporal() -> Temporal:
    """`relate.temporal`, imported on first use and then kept.  Only values that are none of the
    basic kinds reach it, so a statement without temporal or spatial values never loads it; and
    keeping the module saves an import statement per call, which showed up in scan benchmarks."""
    global _TEMPORAL
    if _TEMPORAL is None:
        from .. import temporal as module
        _TEMPORAL = cast(Temporal, module)
    return _TEMPORAL


def temporal_of(value: object) -> Temporal | None:
    """`relate.temporal` when `value` is a temporal or spatial value, else None."""
    t = temporal()
    return t if t.is_value(value) else None


def is_num(v: object) -> bool:
    """An integer or a float (not a boolean)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_int(v: object) -> bool:
    """An integer (not a boolean)."""
    return isinstance(v, int) and not isinstance(v, bool)


def type_name(value: object) -> str:
    """The `columnTypes` name of one value (null is `ANY`)."""
    if value is None:
        return "ANY"
    if value is True or value is False:
        return "BOOLEAN"
    if isinstance(value, int):
        return "INTEGER"
    if isinstance(value, float):
        return "FLOAT"
    if isinstance(value, str):
        return "STRING"
    if isinstance(value, list):
        return "LIST"
    if isinstance(value, dict):
        return "MAP"
    if isinstance(value, Node):
        return "NODE"
    if isinstance(value, Relationship):
        return "RELATIONSHIP"
    if isinstance(value, Path):
        return "PATH"
    if isinstance(value, bytes):
        return "BINARY"  # a byte array
    t = temporal_of(value)
    if t is not None:
        return t.type_name(value)
    return "ANY"
