"""A node index seek of a `MatchSpec` (`plan/match_spec.IndexSeek`) -> the anchor's candidates
for one incoming row.

Each kind gives exactly the nodes of the index's label for which the conjuncts it answers are
true, so those conjuncts are not checked again:

- EQUAL: the index entry of the value (`Graph.index_lookup`, which `PartMatcher` calls itself:
  the common seek keeps its short path).
- IN: the entries of the list's elements, each node once, in the list's order; a null list
  gives nothing.
- RANGE: bounds that are all numbers, or all strings, slice the index's ordered keys
  (`Graph.index_range`); a null or NaN bound, or a number bound with a string one, admits
  nothing.
- PREFIX: a string prefix slices the ordered string keys (`Graph.index_prefix`); null gives
  nothing.
Any other value (a boolean or temporal bound, a list prefix, an IN over a non-list) is left to
the conjuncts themselves, tested on every node of the label, so its answer (or its type error)
is the one the statement gives without the index.
"""
from __future__ import annotations

from enum import Enum

from .scan_filter import Op


class SeekKind(Enum):
    """What a node index seek looks up."""

    EQUAL = "="                          # the nodes whose value equals the value
    IN = "IN"                            # ... equals an element of the list
    PREFIX = "STARTS WITH"               # ... is a string starting with the value
    RANGE = "range"                      # ... lies within the bounds


_NUM, _STR, _NONE, _OTHER = 0, 1, 2, 3


def _family(v) -> int:
    t = type(v)
    if t is int or t is float:
        return _NUM
    if t is str:
        return _STR
    if v is None:
        return _NONE
    return _OTHER


class NodeSeek:
    """One node seek other than EQUAL, its values compiled against the scope before the part; `fallback` is the
    conjuncts it answers compiled against the scope with the anchor: (row, ctx) -> value."""

    __slots__ = ("kind", "label", "key", "value", "bounds", "fallback")

    def __init__(self, kind: SeekKind, label: str, key: str, value, bounds, fallback) -> None:
        self.kind = kind
        self.label = label
        self.key = key
        self.value = value          # compiled: IN, PREFIX
        self.bounds = bounds        # compiled: ((op, fn), ...) for RANGE
        self.fallback = fallback

    def nodes(self, g, row, ctx) -> list:
        kind = self.kind
        if kind is SeekKind.IN:
            values = self.value(row, ctx)
            if values is None:
                return []
            if isinstance(values, list):
                found: dict = {}
                for v in values:
                    for n in g.index_lookup(self.label, self.key, v):
                        found[n] = None
                return list(found)
        elif kind is SeekKind.PREFIX:
            prefix = self.value(row, ctx)
            if prefix is None:
                return []
            if type(prefix) is str:
                return g.index_prefix(self.label, self.key, prefix)
        else:
            found_range = self._range(g, row, ctx)
            if found_range is not None:
                return found_range
        return self._scan(g, row, ctx)

    def _range(self, g, row, ctx) -> list | None:
        lower = upper = None
        lower_inclusive = upper_inclusive = False
        families = set()
        for op, fn in self.bounds:
            v = fn(row, ctx)
            f = _family(v)
            if f == _NONE or (f == _NUM and v != v):
                return []  # `n.x < null` is null, `n.x < NaN` false: no node passes
            if f == _OTHER:
                return None
            families.add(f)
            if op is Op.GT or op is Op.GE:
                lower, lower_inclusive = v, op is Op.GE
            else:
                upper, upper_inclusive = v, op is Op.LE
        if len(families) != 1:
            return []  # a number bound and a string bound: no value is both
        return g.index_range(self.label, self.key, families.pop(), lower, lower_inclusive, upper, upper_inclusive)

    def _scan(self, g, row, ctx) -> list:
        test = self.fallback
        return [n for n in g.nodes_with_label(self.label) if test(row + (n,), ctx) is True]
