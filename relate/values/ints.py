"""Cypher's integer range: integers are signed 64-bit.

Python's ints are unbounded, so every place an integer is made checks it: integer literals
(`syntax`), arithmetic and the functions that compute integers (`exec`), and parameters
(`cli`).  Each words its own failure; the range is this one.
"""
from __future__ import annotations

from ..errors import E

INT_MIN, INT_MAX = -(2 ** 63), 2 ** 63 - 1


def check_int(n: int) -> int:
    """`n` itself, or IntegerOverflow when a computed integer left the 64-bit range."""
    if n < INT_MIN or n > INT_MAX:
        raise E.Arithmetic.IntegerOverflow()
    return n
