"""Cypher arithmetic on values: 64-bit checked integers, IEEE floats, string and list `+`."""
from __future__ import annotations

import math

from ..errors import CypherArgumentError, CypherRuntimeError, CypherTypeError
from ..values import type_name

INT_MIN, INT_MAX = -(2 ** 63), 2 ** 63 - 1


def check_int(n: int) -> int:
    if n < INT_MIN or n > INT_MAX:
        raise CypherRuntimeError("IntegerOverflow", "integer arithmetic overflowed the 64-bit range")
    return n


def _num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _bad(op: str, a: object, b: object) -> CypherTypeError:
    return CypherTypeError("InvalidArgumentType",
                           f"cannot apply {op} to {type_name(a)} and {type_name(b)}")


def add(a, b):
    if a is None or b is None:
        return None
    if _num(a) and _num(b):
        r = a + b
        return check_int(r) if isinstance(r, int) else r
    if isinstance(a, str) and isinstance(b, str):
        return a + b
    if isinstance(a, list):
        return a + b if isinstance(b, list) else a + [b]
    if isinstance(b, list):
        return [a] + b
    if isinstance(a, str) and _num(b) or _num(a) and isinstance(b, str):
        from .functions import FUNCTIONS
        to_s = FUNCTIONS["tostring"][0]
        return to_s(a) + to_s(b)
    raise _bad("+", a, b)


def sub(a, b):
    if a is None or b is None:
        return None
    if _num(a) and _num(b):
        r = a - b
        return check_int(r) if isinstance(r, int) else r
    raise _bad("-", a, b)


def mul(a, b):
    if a is None or b is None:
        return None
    if _num(a) and _num(b):
        r = a * b
        return check_int(r) if isinstance(r, int) else r
    raise _bad("*", a, b)


def div(a, b):
    if a is None or b is None:
        return None
    if _num(a) and _num(b):
        if isinstance(a, int) and isinstance(b, int):
            if b == 0:
                raise CypherArgumentError("DivisionByZero", "/ by zero")
            q = abs(a) // abs(b)
            return check_int(q if (a >= 0) == (b >= 0) else -q)
        try:
            return a / b
        except ZeroDivisionError:
            if a == 0 or (isinstance(a, float) and math.isnan(a)):
                return float("nan")
            return math.copysign(float("inf"), a) * math.copysign(1.0, b)
    raise _bad("/", a, b)


def mod(a, b):
    if a is None or b is None:
        return None
    if _num(a) and _num(b):
        if isinstance(a, int) and isinstance(b, int):
            if b == 0:
                raise CypherArgumentError("DivisionByZero", "% by zero")
            return int(math.fmod(a, b)) if abs(a) < 2 ** 52 else a - b * int(a / b)
        try:
            return math.fmod(a, b)
        except ValueError:
            return float("nan")
    raise _bad("%", a, b)


def power(a, b):
    if a is None or b is None:
        return None
    if _num(a) and _num(b):
        try:
            return float(a) ** float(b)
        except ZeroDivisionError:
            return float("inf")
        except OverflowError:
            return float("inf")
    raise _bad("^", a, b)


def neg(a):
    if a is None:
        return None
    if _num(a):
        return check_int(-a) if isinstance(a, int) else -a
    raise CypherTypeError("InvalidArgumentType", f"cannot negate {type_name(a)}")
