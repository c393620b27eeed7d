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
only asks whether some member allows the relationship, then runs the end test (labels, the
WHERE's tests on the end, once per node and incoming row) and adds the node to one set for the
whole aggregation.
"""
from __future__ import annotations

from ..syntax import ast as A

_FREE: list = [()]   # the family that forbids nothing


class DistinctEnds:
    """Stands in for an Aggregate's loop when the plan's `distinct_ends` rule said so."""

    __slots__ = ("source", "matcher", "predicate", "row_width")

    def __init__(self, source, matcher, predicate, row_width: int) -> None:
        self.source = source
        self.matcher = matcher
        self.predicate = predicate  # the rest of the WHERE (tests on the end node), or None
        self.row_width = row_width

    def rows(self, ctx):
        m = self.matcher
        steps = m.steps
        hops = [(st.types, st.direction is not A.Direction.IN, st.direction is not A.Direction.OUT,
                 st.node.labels) for st in steps]
        last = steps[-1]
        ends: set[int] = set()
        expand = ctx.graph.expand
        timed = ctx.deadline is not None
        for row in self.source.rows(ctx):
            for r in m.anchors(row, ctx):
                refused: set[int] = set()
                pred = self.predicate
                base = list(r) + [None] * (self.row_width - len(r)) if pred is not None else None
                src = r[m.anchor_slot]
                frontier = [(src, _FREE)]
                for k in range(len(hops) - 1):
                    types, out, inc, labels = hops[k]
                    remaining = len(hops) - k - 1
                    nxt: dict = {}   # node id -> [node, family]
                    for node, fam in frontier:
                        if timed:
                            ctx.check_deadline()
                        for rel, other in expand(node, types, out, inc):
                            if labels and not all(lb in other.labels for lb in labels):
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
                    frontier = [(n, _settled(f, remaining)) for n, f in nxt.values()]
                    if not frontier:
                        break
                else:
                    types, out, inc, labels = hops[-1]
                    for node, fam in frontier:
                        if timed:
                            ctx.check_deadline()
                        free = fam is _FREE
                        for rel, other in expand(node, types, out, inc):
                            oid = other.id
                            if oid in ends or oid in refused:
                                continue
                            if not free:
                                rid = rel.id
                                if all(rid in s for s in fam):
                                    continue
                            if labels and not all(lb in other.labels for lb in labels):
                                refused.add(oid)
                                continue
                            if base is not None:
                                base[last.node_slot] = other
                                if pred(tuple(base), ctx) is not True:
                                    refused.add(oid)
                                    continue
                            ends.add(oid)
        yield (len(ends),)


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
