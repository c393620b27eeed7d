"""`MATCH (n:L) [WHERE tests on n] RETURN n.a, n.b, count(*)` -> counts per property values,
without building a row per node.

When an aggregation only counts rows (`count(*)`) and groups by properties of the one node a
single-node MATCH scans (the planner's `grouped_count` rule decides), the grouping needs no row
tuples: `PartMatcher.candidates` gives the scanned (and filtered) nodes as a list, each key
becomes a column of property values (the graph's own cached column when the plan's
`label_columns` rule names the label, see `Graph.column`), and
`collections.Counter` counts the value combinations in C.  Python's equality agrees with Cypher's
grouping equivalence (`compare.hashable`) for every value kind except three: booleans (Python
merges `True` with `1`), NaN (Python keeps each NaN apart) and lists or maps (unhashable).  When
the values hold one of those, the columns are grouped again with `hashable`, so the result is
always the one the generic `Aggregate` loop would give, groups in first-seen order.
"""
from __future__ import annotations

from collections import Counter

from ..values.compare import hashable

_NUMERIC = frozenset((int, float, bool))


class GroupedCount:
    """Stands in for an Aggregate's loop when the plan's `grouped_count` rule said so."""

    __slots__ = ("source", "matcher", "keys", "width", "column_label")

    def __init__(self, source, matcher, keys: tuple[str, ...], width: int, column_label: str | None) -> None:
        self.source = source      # the operator feeding the MATCH
        self.matcher = matcher
        self.keys = keys
        self.width = width        # how many count(*) columns follow the keys
        self.column_label = column_label  # read this label's columns when the graph keeps them

    def rows(self, ctx):
        keys = self.keys
        total = 0
        cols: list[list] = [[] for _ in keys]
        m = self.matcher
        label = self.column_label
        for row in self.source.rows(ctx):
            if label is not None:
                # every node of the label: the graph's columns, when it keeps them
                got = [ctx.graph.column(label, k) for k in keys]
                if all(c is not None for c in got):
                    total += len(got[0][0])
                    for col, (_, values) in zip(cols, got):
                        col += values
                    continue
            nodes = m.candidates(row, ctx)
            if ctx.deadline is not None:
                ctx.check_deadline()
            total += len(nodes)
            for col, k in zip(cols, keys):
                col += [n.props.get(k) for n in nodes]
        w = self.width
        if not keys:
            yield (total,) * w
            return
        groups = _count(cols)
        for kv, c in groups:
            yield kv + (c,) * w


def _count(cols: list[list]) -> list[tuple[tuple, int]]:
    one = len(cols) == 1
    values = cols[0] if one else list(zip(*cols))
    try:
        counts = Counter(values)
    except TypeError:   # a list or map among the values
        counts = None
    if counts is not None and _python_agrees(counts, cols, one):
        if one:
            return [((k,), c) for k, c in counts.items()]
        return list(counts.items())
    groups: dict = {}
    for kv in (((v,) for v in values) if one else values):
        hk = tuple(map(hashable, kv))
        g = groups.get(hk)
        if g is None:
            groups[hk] = [kv, 1]
        else:
            g[1] += 1
    return [(kv, c) for kv, c in groups.values()]


def _python_agrees(counts: Counter, cols: list[list], one: bool) -> bool:
    """Whether Python's key equality grouped these values the way Cypher does."""
    distinct = list(counts) if one else [v for kv in counts for v in kv]
    kinds = set(map(type, distinct))
    if kinds & _NUMERIC:
        # a boolean may hide under a number it was merged with (`True == 1`): look at the
        # columns themselves, but only when numbers or booleans are among the keys
        if any(bool in set(map(type, col)) for col in cols):
            return False
    if float in kinds and any(v != v for v in distinct if type(v) is float):
        return False  # each NaN kept apart; Cypher groups them
    return True
