"""List functions (and the ones lists share with strings): size, head, last, tail, reverse,
range, coalesce, isEmpty."""
from __future__ import annotations

from ...errors import E
from ...values.kinds import is_int, type_name
from .common import type_err


def size(v):
    if v is None:
        return None
    if isinstance(v, (str, list)):
        return len(v)
    raise type_err("size", v)


def is_empty(v):
    if v is None:
        return None
    if isinstance(v, (str, list, dict)):
        return not v
    raise type_err("isEmpty", v)


def head(v):
    if v is None:
        return None
    if isinstance(v, list):
        return v[0] if v else None
    raise type_err("head", v)


def last(v):
    if v is None:
        return None
    if isinstance(v, list):
        return v[-1] if v else None
    raise type_err("last", v)


def tail(v):
    if v is None:
        return None
    if isinstance(v, list):
        return v[1:]
    raise type_err("tail", v)


def reverse(v):
    if v is None:
        return None
    if isinstance(v, (str, list)):
        return v[::-1]
    raise type_err("reverse", v)


def _range(start, end, step) -> range:
    for v in (start, end, step):
        if not is_int(v):
            # range() checks its argument types only at run time, and the TCK names that
            # InvalidArgumentType (not the InvalidArgumentValue of other functions)
            raise E.Type.InvalidArgumentType(f"range() takes integers, got {type_name(v).lower()}")
    if step == 0:
        raise E.Argument.NumberOutOfRange("range() step must not be 0")
    return range(start, end + (1 if step > 0 else -1), step)


def range_(start, end, step=1):
    return list(_range(start, end, step))


def range_within(budget, start, end, step=1):
    """range() under a memory limit: its length is known before the list is built."""
    r = _range(start, end, step)
    try:
        size = 16 * len(r)  # a member's pointer and its integer
    except OverflowError:  # more members than a Python list can index
        budget.refuse()
    budget.check(size)
    return budget.built(list(r), size)


def coalesce(*args):
    for a in args:
        if a is not None:
            return a
    return None


LISTS: dict[str, tuple] = {
    "size": (size, 1, 1),
    "isempty": (is_empty, 1, 1),
    "head": (head, 1, 1),
    "last": (last, 1, 1),
    "tail": (tail, 1, 1),
    "reverse": (reverse, 1, 1),
    "range": (range_, 2, 3),
    "coalesce": (coalesce, 1, 10 ** 6),
}

LISTS_WITHIN: dict = {"range": range_within}
