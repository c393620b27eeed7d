"""Helpers the function families share: argument errors and integer arguments."""
from __future__ import annotations

from ...errors import CypherTypeError, E
from ...values.kinds import is_int, type_name


def type_err(fn: str, v: object) -> CypherTypeError:
    # a value of the wrong type that static checking could not rule out: the TCK calls this an
    # invalid argument *value* (the compile-time refusal is InvalidArgumentType)
    return E.Type.InvalidArgumentValue(fn=fn, type=type_name(v).lower())


def int_arg(fn: str, what: str, v: object) -> int:
    """An integer argument that must not be null (a count, a position)."""
    if v is None:
        raise E.Argument.InvalidArgumentValue(f"{fn}() needs a {what}, got null")
    if not is_int(v):
        raise type_err(fn, v)
    return v


def non_negative(fn: str, what: str, v: object) -> int:
    n = int_arg(fn, what, v)
    if n < 0:
        raise E.Argument.NegativeIntegerArgument(f"{fn}() needs a non-negative {what}, got {n}")
    return n
