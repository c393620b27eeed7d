"""A counted variable-length expand -> the number of its trails, without building a relationship
list, a path or a row for any of them.

When the planner's `count_trails` rule says an aggregation only counts the trails of a one-hop
variable-length part, `CountTrails` stands in for the Aggregate's loop.  The part's own matcher
gives the anchors (so a missing or null start, labels and the access path behave as they always
do); from each, a depth-first walk keeps one iterator per depth and the ids of the relationships
on the current trail (openCypher's rule: no relationship twice in one path).  A trail is counted
when its length is within the bounds and its far node passes the end test (labels, then the
WHERE's tests on the end, run once per node and incoming row).  No recursion, no tuple per
trail; the deepest level only counts.
"""
from __future__ import annotations

from ..syntax import ast as A


class CountTrails:
    """Stands in for an Aggregate's loop when the plan's `count_trails` rule said so."""

    __slots__ = ("source", "matcher", "width", "predicate", "row_width")

    def __init__(self, source, matcher, width: int, predicate, row_width: int) -> None:
        self.source = source        # the operator feeding the MATCH
        self.matcher = matcher      # the part's PartMatcher: anchors, the one step
        self.width = width          # how many count columns (all equal)
        self.predicate = predicate  # the rest of the WHERE (tests on the end node), or None
        self.row_width = row_width  # the width of the MATCH's rows, for the predicate

    def rows(self, ctx):
        m = self.matcher
        st = m.steps[0]
        lo, hi = st.rel.length
        lo = 1 if lo is None else lo
        d = st.direction
        walk = (st.types, d is not A.Direction.IN, d is not A.Direction.OUT)
        total = 0
        for row in self.source.rows(ctx):
            for r in m.anchors(row, ctx):
                good = self._end_test(r, st, ctx)
                total += _trails(ctx, r[st.from_slot], walk, lo, hi, good)
        yield (total,) * self.width

    def _end_test(self, row, st, ctx):
        """node -> whether a trail ending there is counted (None: every node is)."""
        labels = st.node.labels
        pred = self.predicate
        if pred is None:
            if not labels:
                return None
            if len(labels) == 1:
                lb = labels[0]
                return lambda n: lb in n.labels
            return lambda n: all(lb in n.labels for lb in labels)
        base = list(row) + [None] * (self.row_width - len(row))
        slot = st.node_slot
        seen: dict[int, bool] = {}

        def good(n) -> bool:
            v = seen.get(n.id)
            if v is None:
                v = all(lb in n.labels for lb in labels)
                if v:
                    base[slot] = n
                    v = pred(tuple(base), ctx) is True
                seen[n.id] = v
            return v
        return good


def _trails(ctx, src, walk, lo: int, hi: int | None, good) -> int:
    """The trails from `src` of `lo` to `hi` (None: no bound) relationships whose far node is good."""
    count = 0
    if lo == 0 and (good is None or good(src)):
        count += 1
    if hi == 0:
        return count
    types, out, inc = walk
    expand = ctx.graph.expand
    timed = ctx.deadline is not None
    used: set[int] = set()      # ids of the relationships on the current trail
    trail: list[int] = []       # the same, in order: trail[k] leads to stack[k + 1]
    stack = [iter(expand(src, types, out, inc))]
    while stack:
        depth = len(stack)      # the length of a trail that takes a relationship from stack[-1]
        deeper = hi is None or depth < hi
        counted = depth >= lo
        for rel, other in stack[-1]:
            rid = rel.id
            if rid in used:
                continue
            if counted and (good is None or good(other)):
                count += 1
            if deeper:
                if timed:
                    ctx.check_deadline()
                used.add(rid)
                trail.append(rid)
                stack.append(iter(expand(other, types, out, inc)))
                break
        else:
            stack.pop()
            if trail:
                used.discard(trail.pop())
    return count
