"""Cypher arithmetic on values: 64-bit checked integers, IEEE floats, string and list `+`.

Integer results outside the 64-bit range are an `ArithmeticError` (IntegerOverflow), as is an
integer divided by zero; integer `/` and `%` truncate toward zero like Java's.  Float arithmetic
never fails: it gives infinities and NaN.  `^` always gives a float.  Any null operand gives
null.  Arithmetic with durations (and temporal values plus or minus a duration) is
`relate.temporal`'s, reached only when an operand is none of the basic kinds.
"""
from __future__ import annotations

import math

from ..errors import CypherTypeError, E
from ..values.ints import check_int
from ..values.depth import check_member
from ..values.kinds import is_num, temporal, type_name
from ..values.text import string_form


def _bad(op: str, a: object, b: object) -> CypherTypeError:
    return E.Type.InvalidArgumentType(f"cannot apply {op} to {type_name(a)} and {type_name(b)}")


_BASIC = (bool, int, float, str, list, dict)


def _temporal(op: str, a, b):
    """`a op b` when an operand is a temporal value or a duration, else NotImplemented."""
    if isinstance(a, _BASIC) and isinstance(b, _BASIC):
        return NotImplemented
    t = temporal()
    if not (t.is_value(a) or t.is_value(b)):
        return NotImplemented
    return getattr(t, op)(a, b)


def add(a, b):
    if a is None or b is None:
        return None
    if is_num(a) and is_num(b):
        r = a + b
        return check_int(r) if isinstance(r, int) else r
    if isinstance(a, str) and isinstance(b, str):
        return a + b
    if isinstance(a, list):
        if isinstance(b, list):
            return a + b  # as deep as the deeper side
        if type(b) is dict:
            check_member(b, None)  # a map appended is a member, a level deeper
        return a + [b]
    if isinstance(b, list):
        if type(a) is dict:
            check_member(a, None)
        return [a] + b
    if isinstance(a, str) and is_num(b) or is_num(a) and isinstance(b, str):
        return string_form(a) + string_form(b)  # type: ignore[operator]
    r = _temporal("add", a, b)
    if r is not NotImplemented:
        return r
    raise _bad("+", a, b)


def add_within(a, b, budget):
    """`a + b` under a memory limit (`value_size.Budget`): a string or list result is measured
    from both sides before it is built, as `value_size` would measure it."""
    ta = type(a)
    if ta is type(b) and (ta is str or ta is int or ta is float):
        if ta is str and 4 * (len(a) + len(b)) > budget.limit:
            budget.text(a, b)
        return add(a, b)
    if isinstance(a, list) or isinstance(b, list):
        if a is None or b is None:
            return None
        la = len(a) if isinstance(a, list) else 1
        lb = len(b) if isinstance(b, list) else 1
        budget.check(8 * (la + lb))  # the members' pointers alone
        size = budget.size(a) + budget.size(b)
        if not (isinstance(a, list) and isinstance(b, list)):
            size += 8  # the other side becomes a member
        budget.check(size)
        return budget.built(add(a, b), size)
    if isinstance(a, str) or isinstance(b, str):
        if isinstance(a, str) and isinstance(b, str):
            budget.text(a, b)
        elif isinstance(a, str) and is_num(b):
            b = string_form(b)
            budget.text(a, b)
        elif isinstance(b, str) and is_num(a):
            a = string_form(a)
            budget.text(a, b)
    return add(a, b)


def sub(a, b):
    if a is None or b is None:
        return None
    if is_num(a) and is_num(b):
        r = a - b
        return check_int(r) if isinstance(r, int) else r
    r = _temporal("subtract", a, b)
    if r is not NotImplemented:
        return r
    raise _bad("-", a, b)


def mul(a, b):
    if a is None or b is None:
        return None
    if is_num(a) and is_num(b):
        if isinstance(a, float) or isinstance(b, float):
            return float(a) * float(b)
        return check_int(a * b)
    r = _temporal("multiply", a, b)
    if r is not NotImplemented:
        return r
    raise _bad("*", a, b)


def div(a, b):
    if a is None or b is None:
        return None
    if is_num(a) and is_num(b):
        if isinstance(a, int) and isinstance(b, int):
            if b == 0:
                raise E.Arithmetic.DivisionByZero("/ by zero")
            q = abs(a) // abs(b)
            return check_int(q if (a >= 0) == (b >= 0) else -q)
        a, b = float(a), float(b)
        if b == 0.0:
            if a == 0.0 or math.isnan(a):
                return math.nan
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        return a / b
    r = _temporal("divide", a, b)
    if r is not NotImplemented:
        return r
    raise _bad("/", a, b)


def mod(a, b):
    if a is None or b is None:
        return None
    if is_num(a) and is_num(b):
        if isinstance(a, int) and isinstance(b, int):
            if b == 0:
                raise E.Arithmetic.DivisionByZero("% by zero")
            r = abs(a) % abs(b)  # the remainder takes the sign of the dividend
            return r if a >= 0 else -r
        try:
            return math.fmod(float(a), float(b))
        except ValueError:  # x % 0.0 and inf % y
            return math.nan
    raise _bad("%", a, b)


def power(a, b):
    if a is None or b is None:
        return None
    if is_num(a) and is_num(b):
        x, y = float(a), float(b)
        try:
            return math.pow(x, y)
        except OverflowError:
            negative = x < 0 and y.is_integer() and y % 2 == 1
            return -math.inf if negative else math.inf
        except ValueError:
            if x == 0.0 and y < 0:  # 0 ^ negative
                negative = math.copysign(1.0, x) < 0 and y.is_integer() and y % 2 == 1
                return -math.inf if negative else math.inf
            return math.nan  # a negative base with a fractional exponent
    raise _bad("^", a, b)


def neg(a):
    if a is None:
        return None
    if is_num(a):
        return check_int(-a) if isinstance(a, int) else -a
    if not isinstance(a, _BASIC):
        t = temporal()
        if t.is_value(a):
            r = t.negate(a)
            if r is not NotImplemented:
                return r
    raise E.Type.InvalidArgumentType(f"cannot negate {type_name(a)}")
