"""A property index's entry keys -> their Cypher order, for the range and prefix seeks.

An index (`Graph.index_data[(label, key)]`) maps each distinct value to the nodes holding it;
that is all an equality seek needs.  A range seek (`<`, `<=`, `>`, `>=`, both ends) or a prefix
seek (`STARTS WITH`) needs the values in order as well.  `OrderedKeys` keeps two sorted lists of
an index's keys, one per type family that Cypher orders within itself: numbers (integers and
floats together, NaN left out: it is on no side of any bound) and strings.  Values of any other
type are not kept: a range over them is answered by a scan (`exec/match.py`).

Writes stay cheap: nothing is kept until the first range seek on an index asks (`Graph.ordered`);
from then on a write that adds or drops a distinct value moves one entry (`bisect.insort`, a
memmove in C), and a write to an index that no range seek ever read costs one dict lookup.
Python's order of ints, floats (exact across the two) and strings (code point by code point) is
the order `values.compare.compare` gives, so a slice of a list holds exactly the values a
comparison with its ends admits.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right, insort


def _family(v) -> int | None:
    """Which list a key belongs to: 0 numbers, 1 strings, None neither."""
    t = type(v)
    if t is int or (t is float and v == v):
        return 0
    if t is str:
        return 1
    return None


class OrderedKeys:
    """The number keys and the string keys of one index, each sorted."""

    __slots__ = ("lists",)

    def __init__(self, keys) -> None:
        nums, strs = [], []
        for k in keys:
            f = _family(k)
            if f == 0:
                nums.append(k)
            elif f == 1:
                strs.append(k)
        nums.sort()
        strs.sort()
        self.lists = (nums, strs)

    def add(self, key) -> None:
        f = _family(key)
        if f is not None:
            insort(self.lists[f], key)

    def remove(self, key) -> None:
        f = _family(key)
        if f is None:
            return
        keys = self.lists[f]
        i = bisect_left(keys, key)
        # 1 and 1.0 are one entry of the index, so the key found may be the other spelling
        if i < len(keys) and keys[i] == key:
            del keys[i]

    def between(self, family: int, lower, lower_inclusive: bool, upper, upper_inclusive: bool) -> list:
        """The keys of `family` within the bounds (None: that side is open), in order."""
        keys = self.lists[family]
        lo = 0 if lower is None else (bisect_left if lower_inclusive else bisect_right)(keys, lower)
        hi = len(keys) if upper is None else (bisect_right if upper_inclusive else bisect_left)(keys, upper)
        return keys[lo:hi] if lo < hi else []

    def prefixed(self, prefix: str) -> list:
        """The string keys that start with `prefix`, in order."""
        keys = self.lists[1]
        i = bisect_left(keys, prefix)
        out = []
        n = len(keys)
        while i < n and keys[i].startswith(prefix):
            out.append(keys[i])
            i += 1
        return out
