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
- CONTAINS, SUFFIX (a TEXT index, `TextSeek`): a string gives the distinct strings that contain
  it or end with it (`storage/index_entries.TextEntries`); null gives nothing.
- COMPOSITE (`CompositeSeek`): a null among the equalities gives nothing; else the entry of the
  values (`CompositeEntries.lookup`), or with a range on the next key the entries of the values'
  group within the bounds (`CompositeEntries.prefixed`, bounds as for RANGE), each node checked
  for Cypher equality where the index's grouping is looser (as `Graph.index_lookup` does).
- BBOX, DISTANCE (a POINT index, `PointSeek`): the nodes whose point has the SRID of the box's
  corners (or of the centre) and a first coordinate within the box's (or within the radius of the
  centre's, for a Cartesian point); every point of that SRID for a geographic distance, or for a
  box crossing the 180th meridian; and always the nodes whose value is no point.  A superset: the
  predicate stays in the WHERE and decides.  A null (or corners of two SRIDs) gives only the
  nodes whose value is no point; a value that is not a point (or a radius that is not a number)
  scans the label, so the predicate gives its own answer or error.
Any other value (a boolean or temporal bound, a list prefix, an IN over a non-list) is left to
the conjuncts themselves, tested on every node of the label (a composite seek: of the group of
its equalities), so its answer (or its type error) is the one the statement gives without the
index.
"""
from __future__ import annotations

from enum import Enum

from ..values.compare import equals
from .scan_filter import Op

_EXACT = frozenset((str, int))  # kinds whose index grouping is Cypher equality


class SeekKind(Enum):
    """What a node index seek looks up."""

    EQUAL = "="                          # the nodes whose value equals the value
    IN = "IN"                            # ... equals an element of the list
    PREFIX = "STARTS WITH"               # ... is a string starting with the value
    RANGE = "range"                      # ... lies within the bounds
    CONTAINS = "CONTAINS"                # TEXT index: ... is a string containing the value
    SUFFIX = "ENDS WITH"                 # TEXT index: ... is a string ending with the value
    COMPOSITE = "composite"              # composite index: equal on the first keys, then maybe a range
    BBOX = "point.withinBBox"            # POINT index: ... is a point within the box (a superset)
    DISTANCE = "point.distance"          # POINT index: ... is a point within the distance (a superset)


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


def _bounds(bounds, row, ctx):
    """The bounds' values -> (family, lower, lower inclusive, upper, upper inclusive); () when no
    value passes, None when the family is one the index does not order."""
    lower = upper = None
    lower_inclusive = upper_inclusive = False
    families = set()
    for op, fn in bounds:
        v = fn(row, ctx)
        f = _family(v)
        if f == _NONE or (f == _NUM and v != v):
            return ()  # `n.x < null` is null, `n.x < NaN` false: no node passes
        if f == _OTHER:
            return None
        families.add(f)
        if op is Op.GT or op is Op.GE:
            lower, lower_inclusive = v, op is Op.GE
        else:
            upper, upper_inclusive = v, op is Op.LE
    if len(families) != 1:
        return ()  # a number bound and a string bound: no value is both
    return families.pop(), lower, lower_inclusive, upper, upper_inclusive


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
        b = _bounds(self.bounds, row, ctx)
        if not b:
            return None if b is None else []
        return g.index_range(self.label, self.key, *b)

    def _scan(self, g, row, ctx) -> list:
        test = self.fallback
        return [n for n in g.nodes_with_label(self.label) if test(row + (n,), ctx) is True]


class TextSeek:
    """A TEXT index's CONTAINS or ENDS WITH seek; `fallback` as `NodeSeek`'s."""

    __slots__ = ("kind", "label", "index", "value", "fallback")

    def __init__(self, kind: SeekKind, label: str, index: str, value, fallback) -> None:
        self.kind = kind
        self.label = label
        self.index = index
        self.value = value
        self.fallback = fallback

    def nodes(self, g, row, ctx) -> list:
        v = self.value(row, ctx)
        if v is None:
            return []
        if type(v) is not str:
            test = self.fallback
            return [n for n in g.nodes_with_label(self.label) if test(row + (n,), ctx) is True]
        entries = g.node_entries[self.label][self.index]
        return entries.containing(v) if self.kind is SeekKind.CONTAINS else entries.ending(v)


class CompositeSeek:
    """A composite index's seek: `values` the equalities' closures in the index's key order,
    `bounds` as `NodeSeek`'s for the next key, `fallback` the range's conjuncts (or None)."""

    __slots__ = ("label", "index", "keys", "values", "bounds", "fallback")

    def __init__(self, label: str, index: str, keys: tuple[str, ...], values, bounds, fallback) -> None:
        self.label = label
        self.index = index
        self.keys = keys
        self.values = values
        self.bounds = bounds
        self.fallback = fallback

    def nodes(self, g, row, ctx) -> list:
        values = tuple(fn(row, ctx) for fn in self.values)
        if None in values:
            return []  # `n.k = null` is null
        entries = g.node_entries[self.label][self.index]
        if not self.bounds:
            nodes = entries.lookup(values)
        else:
            b = _bounds(self.bounds, row, ctx)
            if b is None:
                test = self.fallback
                nodes = [n for n in entries.prefixed_all(values) if test(row + (n,), ctx) is True]
            elif not b:
                return []
            else:
                nodes = entries.prefixed(values, *b)
        if any(type(v) not in _EXACT for v in values):
            keys = self.keys
            nodes = [n for n in nodes if all(equals(n.props.get(k), v) is True for k, v in zip(keys, values))]
        return nodes


class PointSeek:
    """A POINT index's box or distance seek: `value` the lower-left corner or the centre, `other`
    the upper-right corner or the radius (closures)."""

    __slots__ = ("kind", "label", "index", "value", "other")

    def __init__(self, kind: SeekKind, label: str, index: str, value, other) -> None:
        self.kind = kind
        self.label = label
        self.index = index
        self.value = value
        self.other = other

    def nodes(self, g, row, ctx):
        a = self.value(row, ctx)
        b = self.other(row, ctx)
        box = self.kind is SeekKind.BBOX
        srid = getattr(a, "srid", None)
        if (a is not None and srid is None) or (b is not None and (getattr(b, "srid", None) is None if box
                                                                   else _family(b) != _NUM)):
            # a value of the wrong type: the predicate's own error (or answer) for every node
            return list(g.nodes_with_label(self.label))
        entries = g.node_entries[self.label][self.index]
        others = list(entries.others.values())  # no point of theirs is null: the predicate decides
        if a is None or b is None or (box and b.srid != srid) or (not box and b != b):
            return others
        if box:
            lo, hi = a.coords[0], b.coords[0]
            if srid in (4326, 4979) and lo > hi:  # across the 180th meridian
                lo, hi = -float("inf"), float("inf")
            return entries.between(srid, lo, hi)
        if srid in (4326, 4979):
            return entries.between(srid, -float("inf"), float("inf"))
        x = a.coords[0]
        return entries.between(srid, x - b, x + b)
