"""The entries of the node indexes that are not single-key RANGE indexes -> the nodes a seek on
them gives: composite RANGE indexes (`CompositeEntries`) and TEXT indexes (`TextEntries`).

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
Neither checks Cypher equality itself: `exec/index_seek.py` filters what a lookup gives.
"""
from __future__ import annotations

from bisect import bisect_left, insort

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
