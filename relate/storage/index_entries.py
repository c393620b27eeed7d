"""The entries of the node indexes that are not single-key RANGE indexes -> the nodes a seek on
them gives: composite RANGE indexes (`CompositeEntries`), TEXT indexes (`TextEntries`) and POINT
indexes (`PointEntries`).

`Graph.node_entries[label][index name]` holds one of these per such index; `Graph._index_add` /
`_index_remove` hand them every node of their label before and after a change (`key`: the one
property that changes, None for the whole node), so each keeps what it holds exact:

- a composite index holds a node when it has every one of the index's keys (as Neo4j's does), under
  the tuple of their `hashable` values, so an equality on every key is one dict lookup.  A seek
  with equalities on the first keys and a range on the next reads `prefixed`: for each prefix
  length a range seek asked for, the tuples grouped by their first keys with the next key's
  values in order (`index_order.OrderedKeys`), built on first use and moved with every distinct
  tuple the index gains or loses from then on.
- a text index holds the nodes whose value is a string (other values are on no side of
  CONTAINS / ENDS WITH); CONTAINS reads every distinct string once, ENDS WITH slices the distinct
  strings sorted by their reversal (built on first use, kept from then on).
- a point index holds the nodes whose value is a point without a NaN coordinate under (SRID,
  coordinates), and apart from them the nodes with any other value (given by every seek: the
  predicate decides what they give, false or a type error); a seek reads the points of one SRID sorted
  by their first coordinate (built on first use, kept from then on) between two bounds: a
  superset of the points a box or a distance admits, which the predicate itself then filters.
None checks Cypher equality itself: `exec/index_seek.py` filters what a lookup gives.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right, insort

from ..values.compare import hashable
from .index_order import OrderedKeys


def _add(data: dict, value, node) -> bool:
    """Put `node` under `value`; whether `value` is new to the index."""
    held = data.get(value)
    if held is None:
        data[value] = node
        return True
    if held.__class__ is dict:
        held[node.id] = node
    elif held is not node:
        data[value] = {held.id: held, node.id: node}
    return False


def _remove(data: dict, value, node) -> bool:
    """Take `node` from under `value`; whether `value` left the index."""
    held = data.get(value)
    if held is None:
        return False
    if held.__class__ is dict:
        held.pop(node.id, None)
        if len(held) == 1:
            data[value] = next(iter(held.values()))
        elif not held:
            del data[value]
            return True
    elif held is node:
        del data[value]
        return True
    return False


def _nodes(data: dict, keys) -> list:
    out: list = []
    for k in keys:
        held = data.get(k)
        if held is None:
            continue
        if held.__class__ is dict:
            out.extend(held.values())
        else:
            out.append(held)
    return out


class CompositeEntries:
    """A composite RANGE index's entries: tuple of values -> node(s)."""

    __slots__ = ("keys", "data", "_prefixed")

    def __init__(self, keys: tuple[str, ...], nodes=()) -> None:
        self.keys = keys
        self.data: dict = {}
        # prefix length m -> {first m values: [OrderedKeys of value m, {value m: {tuple: None}}]}
        self._prefixed: dict[int, dict] = {}
        for n in nodes:
            self.add(n)

    def _entry(self, props) -> tuple | None:
        out = []
        for k in self.keys:
            if k not in props:
                return None
            out.append(hashable(props[k]))
        return tuple(out)

    def add(self, node, key: str | None = None) -> None:
        if key is not None and key not in self.keys:
            return
        t = self._entry(node.props)
        if t is not None and _add(self.data, t, node) and self._prefixed:
            for m, groups in self._prefixed.items():
                self._group_add(groups, m, t)

    def remove(self, node, key: str | None = None) -> None:
        if key is not None and key not in self.keys:
            return
        t = self._entry(node.props)
        if t is not None and _remove(self.data, t, node) and self._prefixed:
            for m, groups in self._prefixed.items():
                group = groups.get(t[:m])
                if group is None:
                    continue
                tuples = group[1].get(t[m])
                if tuples is not None:
                    tuples.pop(t, None)
                    if not tuples:
                        del group[1][t[m]]
                        group[0].remove(t[m])

    @staticmethod
    def _group_add(groups: dict, m: int, t: tuple) -> None:
        group = groups.get(t[:m])
        if group is None:
            group = groups[t[:m]] = [OrderedKeys(()), {}]
        tuples = group[1].get(t[m])
        if tuples is None:
            tuples = group[1][t[m]] = {}
            group[0].add(t[m])
        tuples[t] = None

    def lookup(self, values: tuple) -> list:
        """The nodes whose keys' values are `values` (as `hashable` groups them)."""
        return _nodes(self.data, (tuple(hashable(v) for v in values),))

    def _group(self, values: tuple):
        m = len(values)
        groups = self._prefixed.get(m)
        if groups is None:
            groups = self._prefixed[m] = {}
            for t in self.data:
                self._group_add(groups, m, t)
        return groups.get(tuple(hashable(v) for v in values))

    def prefixed_all(self, values: tuple) -> list:
        """The nodes whose first keys' values are `values`, whatever the next key's value."""
        group = self._group(values)
        if group is None:
            return []
        return _nodes(self.data, [t for tuples in group[1].values() for t in tuples])

    def prefixed(self, values: tuple, family: int, lower, lower_inclusive: bool, upper,
                 upper_inclusive: bool) -> list:
        """The nodes whose first keys' values are `values` and whose next key's value is a number
        (`family` 0) or a string (1) within the bounds (None: open)."""
        group = self._group(values)
        if group is None:
            return []
        tuples: list = []
        for v in group[0].between(family, lower, lower_inclusive, upper, upper_inclusive):
            tuples.extend(group[1][v])
        return _nodes(self.data, tuples)


class TextEntries:
    """A TEXT index's entries: string value -> node(s)."""

    __slots__ = ("key", "data", "_reversed")

    def __init__(self, key: str, nodes=()) -> None:
        self.key = key
        self.data: dict = {}
        self._reversed: list[str] | None = None  # the distinct strings reversed, sorted (ENDS WITH)
        for n in nodes:
            self.add(n)

    def add(self, node, key: str | None = None) -> None:
        if key is not None and key != self.key:
            return
        v = node.props.get(self.key)
        if type(v) is str and _add(self.data, v, node) and self._reversed is not None:
            insort(self._reversed, v[::-1])

    def remove(self, node, key: str | None = None) -> None:
        if key is not None and key != self.key:
            return
        v = node.props.get(self.key)
        if type(v) is str and _remove(self.data, v, node) and self._reversed is not None:
            r = v[::-1]
            i = bisect_left(self._reversed, r)
            if i < len(self._reversed) and self._reversed[i] == r:
                del self._reversed[i]

    def containing(self, part: str) -> list:
        return _nodes(self.data, [s for s in self.data if part in s])

    def ending(self, suffix: str) -> list:
        rev = self._reversed
        if rev is None:
            rev = self._reversed = sorted(s[::-1] for s in self.data)
        r = suffix[::-1]
        i = bisect_left(rev, r)
        found = []
        while i < len(rev) and rev[i].startswith(r):
            found.append(rev[i][::-1])
            i += 1
        return _nodes(self.data, found)


class PointEntries:
    """A POINT index's entries: (SRID, coordinates) -> node(s)."""

    __slots__ = ("key", "data", "others", "_sorted", "_point")

    def __init__(self, key: str, nodes=()) -> None:
        from ..temporal.point import Point  # only a graph with a point index needs it
        self._point = Point
        self.key = key
        self.data: dict = {}
        # id -> the nodes whose value is no point or a point with a NaN: a seek gives them too, so
        # that the predicate says what it says of them (false, or a type error)
        self.others: dict = {}
        self._sorted: dict[int, list] | None = None  # SRID -> the coordinate tuples, sorted
        for n in nodes:
            self.add(n)

    def _entry(self, node):
        """(SRID, coordinates), "other" for a value that is no such point, None for no value."""
        v = node.props.get(self.key)
        if v is None:
            return None
        if v.__class__ is not self._point or any(math.isnan(c) for c in v.coords):
            return "other"
        return (v.srid, v.coords)

    def add(self, node, key: str | None = None) -> None:
        if key is not None and key != self.key:
            return
        e = self._entry(node)
        if e == "other":
            self.others[node.id] = node
        elif e is not None and _add(self.data, e, node) and self._sorted is not None:
            insort(self._sorted.setdefault(e[0], []), e[1])

    def remove(self, node, key: str | None = None) -> None:
        if key is not None and key != self.key:
            return
        e = self._entry(node)
        if e == "other":
            self.others.pop(node.id, None)
        elif e is not None and _remove(self.data, e, node) and self._sorted is not None:
            coords = self._sorted.get(e[0], [])
            i = bisect_left(coords, e[1])
            if i < len(coords) and coords[i] == e[1]:
                del coords[i]

    def between(self, srid: int, low: float, high: float) -> list:
        """The nodes holding a point of `srid` whose first coordinate lies in [low, high], then
        the `others`."""
        by_srid = self._sorted
        if by_srid is None:
            by_srid = self._sorted = {}
            for s, c in self.data:
                by_srid.setdefault(s, []).append(c)
            for coords in by_srid.values():
                coords.sort()
        coords = by_srid.get(srid, [])
        i = bisect_left(coords, (low,))
        j = bisect_right(coords, (high, math.inf, math.inf, math.inf))
        found = _nodes(self.data, [(srid, c) for c in coords[i:j]])
        if self.others:
            found.extend(self.others.values())
        return found
