"""A fixed chain of expands under `count(DISTINCT end)` -> the number of distinct end nodes,
carried hop by hop as node frontiers instead of rows.

When the planner's `distinct_ends` rule says so, `DistinctEnds` stands in for the Aggregate's
loop.  The part's matcher gives the anchors; each hop maps the frontier (node id -> how it was
reached) to the next one.  Relationship uniqueness across the chain is kept exactly: with a node
goes the family of relationship-id sets of the walks that reached it, and a hop through a
relationship keeps only the members it is not in.  A family that holds more pairwise disjoint
members than hops remain can never be exhausted by the rest of the walk (each later
relationship is in at most one of them), so it is replaced by the empty constraint: in a walk
like `(a)-->(b)-->(c)` a node reached by two relationships follows every next one.  The last hop
only asks whether some member allows the relationship; the nodes it reaches that are not yet
counted are tested once each (the end's labels, then the WHERE's simple tests on the end as one
`scan_filter` pass) and join one set of node ids for the whole aggregation.
"""
from __future__ import annotations

from ..syntax import ast as A

_FREE: list = [()]   # the family that forbids nothing


class DistinctEnds:
    """Stands in for an Aggregate's loop when the plan's `distinct_ends` rule said so."""

    __slots__ = ("source", "matcher", "end_filter")

    def __init__(self, source, matcher, end_filter) -> None:
        self.source = source
        self.matcher = matcher
        self.end_filter = end_filter  # a scan_filter.ScanFilter of the WHERE's tests on the end, or None

    def rows(self, ctx):
        m = self.matcher
        steps = m.steps
        hops = [(st.types, st.direction is not A.Direction.IN, st.direction is not A.Direction.OUT,
                 st.node.labels) for st in steps]
        ends: set[int] = set()
        expand = ctx.graph.expand
        timed = ctx.deadline is not None
        flt = self.end_filter
        for row in self.source.rows(ctx):
            for r in m.anchors(row, ctx):
                frontier = [(r[m.anchor_slot], _FREE)]
                for k in range(len(hops) - 1):
                    frontier = _hop(expand, frontier, hops[k], len(hops) - k - 1, ctx, timed)
                    if not frontier:
                        break
                else:
                    found = _last_hop(expand, frontier, hops[-1], ends, ctx, timed)
                    if flt is not None and found:
                        found = flt.select(found, r, ctx)
                    ends.update(n.id for n in found)
        yield (len(ends),)


def _hop(expand, frontier: list, hop, remaining: int, ctx, timed: bool) -> list:
    """The frontier one hop on: (node, family) pairs, one per node reached."""
    types, out, inc, labels = hop
    nxt: dict = {}   # node id -> [node, family]
    one = labels[0] if len(labels) == 1 else None
    for node, fam in frontier:
        if timed:
            ctx.check_deadline()
        for rel, other in expand(node, types, out, inc):
            if labels and (one not in other.labels if one is not None else
                           not all(lb in other.labels for lb in labels)):
                continue
            rid = rel.id
            if fam is _FREE:
                grown = [(rid,)]
            else:
                grown = [s + (rid,) for s in fam if rid not in s]
                if not grown:
                    continue
            have = nxt.get(other.id)
            if have is None:
                nxt[other.id] = [other, grown]
            else:
                have[1] += grown
    return [(n, _settled(f, remaining)) for n, f in nxt.values()]


def _last_hop(expand, frontier: list, hop, ends: set, ctx, timed: bool) -> list:
    """The nodes the last hop reaches that are not yet in `ends` and have the end's labels."""
    types, out, inc, labels = hop
    found: dict = {}
    for node, fam in frontier:
        if timed:
            ctx.check_deadline()
        pairs = expand(node, types, out, inc)
        if fam is _FREE:
            for _, other in pairs:
                found[other.id] = other
        elif len(fam) == 1:
            s0 = fam[0]
            for rel, other in pairs:
                if rel.id not in s0:
                    found[other.id] = other
        else:
            for rel, other in pairs:
                rid = rel.id
                if not all(rid in s for s in fam):
                    found[other.id] = other
    if len(labels) == 1:
        lb = labels[0]
        return [n for i, n in found.items() if i not in ends and lb in n.labels]
    if labels:
        return [n for i, n in found.items() if i not in ends and all(lb in n.labels for lb in labels)]
    return [n for i, n in found.items() if i not in ends]


def _settled(fam: list, remaining: int) -> list:
    """`fam` without repeats, or the free family when `remaining` more relationships can never
    meet all of its members (more than `remaining` of them are pairwise disjoint)."""
    if len(fam) == 1:
        return fam
    taken: set[int] = set()
    disjoint = 0
    for s in fam:
        if taken.isdisjoint(s):
            taken.update(s)
            disjoint += 1
            if disjoint > remaining:
                return _FREE
    return list(dict.fromkeys(fam))
