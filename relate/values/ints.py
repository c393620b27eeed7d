"""Cypher's integer range: integers are signed 64-bit.

Python's ints are unbounded, so every place an integer is made checks it: integer literals
(`syntax`), arithmetic and the functions that compute integers (`exec`), and parameters (`cli`
as it reads them; `Database.run` for every door, with `wide_int_path`).  Each words its own
failure; the range is this one.
"""
from __future__ import annotations

from ..errors import E
from .depth import MAX_DEPTH

INT_MIN, INT_MAX = -(2 ** 63), 2 ** 63 - 1
# how a parameter outside the range is refused (after `parameter $x: `); the CLI words the
# same refusal as `--param x: a number is out of range (integers must fit in 64 bits, ...)`
PARAMETER_RANGE = "a number is out of range (integers must fit in 64 bits)"


def check_int(n: int) -> int:
    """`n` itself, or IntegerOverflow when a computed integer left the 64-bit range."""
    if n < INT_MIN or n > INT_MAX:
        raise E.Arithmetic.IntegerOverflow()
    return n


def _wide(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and not INT_MIN <= n <= INT_MAX


def _name(key: object) -> str:
    text = str(key)
    return text if text.isidentifier() else "`" + text.replace("`", "``") + "`"


WIDE = 1     # `scan_params`: an integer outside 64 bits
FOREIGN = 2  # a value that is not JSON's (a date, bytes, a tuple): `values.python` converts it
DEEP = 4     # a value nested more than `values.depth.MAX_DEPTH` levels (the walk stops there)


def scan_params(params: dict) -> int:
    """WIDE when any integer in the parameter map (at any depth) is outside 64 bits, else the
    flags FOREIGN (some value is none of JSON's kinds) and DEEP (one nests past `MAX_DEPTH`), or
    0: the one scan every statement with parameters pays, so it builds no paths (`wide_int_path`
    does, once a wide integer is found).  A map of scalars is looked through in one loop
    (no stack to build), any other by `_scan_nested`."""
    for v in params.values():
        t = type(v)
        if t is int:
            if v < INT_MIN or v > INT_MAX:
                return WIDE
        elif t is not str and t is not float and v is not None and t is not bool:
            return _scan_nested(params)
    return 0


def _scan_nested(params: dict) -> int:
    """`scan_params` through lists, tuples and maps, with a stack of its own (any depth); DEEP
    when a value nests past `MAX_DEPTH` (any wide integer found first wins)."""
    lo, hi = INT_MIN, INT_MAX
    stack: list = [(params.values(), 0)]  # members of a value `level` deep (the map itself: 0)
    found = 0
    while stack:
        members, level = stack.pop()
        inner = level + 1
        for v in members:
            t = type(v)
            if t is int:
                if v < lo or v > hi:
                    return WIDE
            elif t is str or t is float or v is None or t is bool:
                continue
            elif t is dict:
                if inner > MAX_DEPTH:
                    found |= DEEP
                    continue
                # a row map of JSON scalars (`UNWIND $rows`) is looked through here, without a
                # stack step; one holding more goes on the stack whole (its ints are seen twice)
                for w in v.values():
                    u = type(w)
                    if u is str:
                        continue
                    if u is int:
                        if w < lo or w > hi:
                            return WIDE
                    elif u is not float and w is not None and u is not bool:
                        stack.append((v.values(), inner))
                        break
            elif t is list:
                if inner > MAX_DEPTH:
                    found |= DEEP
                else:
                    stack.append((v, inner))
            elif isinstance(v, dict):
                if inner > MAX_DEPTH:
                    found |= DEEP
                else:
                    stack.append((v.values(), inner))
            elif isinstance(v, (list, tuple)):
                found |= FOREIGN  # a tuple becomes a list
                if inner > MAX_DEPTH:
                    found |= DEEP
                else:
                    stack.append((v, inner))
            elif _wide(v):
                return WIDE
            else:
                found |= FOREIGN
    return found


def wide_int_path(params: dict) -> str | None:
    """Where the first integer outside 64 bits sits in a parameter map (`$x`, `$rows[2].age`),
    None when there is none.  Looks through lists, tuples and maps in order, with a stack of its
    own (any depth)."""
    if not scan_params(params) & (WIDE | DEEP):  # the scan stops at the nesting bound; this walk does not
        return None
    stack = [iter(params.items())]
    path: list[str] = []
    while stack:
        for key, value in stack[-1]:
            kind = type(value)
            if kind is str or kind is float or kind is bool or value is None:
                continue
            step = f"[{key}]" if type(key) is int else ("$" if len(stack) == 1 else ".") + _name(key)
            if _wide(value):
                return "".join(path) + step
            if isinstance(value, (list, tuple)):
                stack.append(iter(enumerate(value)))
            elif isinstance(value, dict):
                stack.append(iter(value.items()))
            else:
                continue
            path.append(step)
            break
        else:
            stack.pop()
            if path:
                path.pop()
    return None
