"""A counted variable-length expand -> the number of its trails, without building a relationship
list, a path or a row for any of them.

When the planner's `count_trails` rule says an aggregation only counts the trails of a one-hop
variable-length part, `CountTrails` stands in for the Aggregate's loop.  The part's own matcher
gives the anchors (so a missing or null start, labels and the access path behave as they always
do); from each, a depth-first walk keeps one iterator per depth and the relationships on the
current trail (openCypher's rule: no relationship twice in one path).  A trail counts when its
length is within the bounds and its far node has the end's labels and passes the WHERE's simple
tests on the end (`scan_filter`, run once per distinct end node over the per-node tallies).  No
recursion, no tuple per trail.  The last level is counted, not walked: the relationships at the
node (with good far nodes), less those already on the trail.  Grouping keys that read only the
start add each anchor's count to its row's group.
"""
from __future__ import annotations

from ..syntax import ast as A
from ..values.compare import hashable


class CountTrails:
    """Stands in for an Aggregate's loop when the plan's `count_trails` rule said so."""

    __slots__ = ("source", "matcher", "width", "end_filter", "row_width", "key_fns")

    def __init__(self, source, matcher, width: int, end_filter, row_width: int, key_fns=()) -> None:
        self.source = source          # the operator feeding the MATCH
        self.matcher = matcher        # the part's PartMatcher: anchors, the one step
        self.width = width            # how many count columns (all equal)
        self.end_filter = end_filter  # a scan_filter.ScanFilter of the WHERE's tests on the end, or None
        self.row_width = row_width    # the width of the MATCH's rows, for the keys
        self.key_fns = key_fns        # grouping keys that read only the anchor's row

    def rows(self, ctx):
        m = self.matcher
        st = m.steps[0]
        lo, hi = st.rel.length
        lo = 1 if lo is None else lo
        d = st.direction
        walk = (st.types, d is not A.Direction.IN, d is not A.Direction.OUT)
        labels = st.node.labels
        if not labels:
            good = None
        elif len(labels) == 1:
            lb = labels[0]

            def good(n) -> bool:
                return lb in n.labels
            good.label = lb  # type: ignore[attr-defined]
        else:
            def good(n) -> bool:
                return all(lb in n.labels for lb in labels)
        flt = self.end_filter
        total = 0
        key_fns = self.key_fns
        groups: dict = {}
        for row in self.source.rows(ctx):
            for r in m.anchors(row, ctx):
                if flt is None:
                    n = _trails(ctx, r[st.from_slot], walk, lo, hi, good, None)
                else:
                    tally: dict = {}
                    _trails(ctx, r[st.from_slot], walk, lo, hi, good, tally)
                    n = sum(tally[x.id][1] for x in flt.select([v[0] for v in tally.values()], r, ctx))
                if not key_fns:
                    total += n
                elif n:
                    # groups in the order the generic loop first meets them: an anchor's trails
                    # are its rows, one after another
                    full = r + (None,) * (self.row_width - len(r))
                    kv = tuple(f(full, ctx) for f in key_fns)
                    hk = tuple(map(hashable, kv))
                    g = groups.get(hk)
                    if g is None:
                        groups[hk] = [kv, n]
                    else:
                        g[1] += n
        w = self.width
        if not key_fns:
            yield (total,) * w
            return
        for kv, n in groups.values():
            yield kv + (n,) * w


def _trails(ctx, src, walk, lo: int, hi: int | None, good, tally: dict | None) -> int:
    """The trails from `src` of `lo` to `hi` (None: no bound) relationships whose far node is good;
    with `tally`, counted per far node there instead (node id -> [node, trails])."""
    count = 0

    def hit(node) -> None:
        t = tally.get(node.id)
        if t is None:
            tally[node.id] = [node, 1]
        else:
            t[1] += 1

    if lo == 0 and (good is None or good(src)):
        if tally is None:
            count += 1
        else:
            hit(src)
    if hi == 0:
        return count
    types, out, inc = walk
    expand = ctx.graph.expand
    timed = ctx.deadline is not None
    used: set[int] = set()      # ids of the relationships on the current trail
    trail: list = []            # the same relationships, in order: trail[k] leads to stack[k + 1]
    stack = [iter(expand(src, types, out, inc))]
    # the last level is counted, not walked (per-node tallies walk it)
    last = hi is not None and hi >= lo and tally is None
    one = getattr(good, "label", None)  # the one label a good node carries, tested inline
    while stack:
        depth = len(stack)      # the length of a trail that takes a relationship from stack[-1]
        deeper = hi is None or depth < hi
        counted = depth >= lo
        shortcut = last and depth + 1 == hi
        for rel, other in stack[-1]:
            rid = rel.id
            if rid in used:
                continue
            if counted and (good is None or good(other)):
                if tally is None:
                    count += 1
                else:
                    hit(other)
            if shortcut:
                if timed:
                    ctx.check_deadline()
                pairs = expand(other, types, out, inc)
                if good is None:
                    k = len(pairs)
                elif one is not None:
                    k = sum([one in o.labels for _, o in pairs])
                else:
                    k = sum([good(o) for _, o in pairs])
                trail.append(rel)
                for u in trail:  # the trail's own relationships at `other` are not taken again
                    if types and u.type not in types:
                        continue
                    if out and u.start is other:
                        far = u.end
                    elif inc and u.end is other:
                        far = u.start
                    else:
                        continue
                    if good is None or good(far):
                        k -= 1
                trail.pop()
                count += k
            elif deeper:
                if timed:
                    ctx.check_deadline()
                used.add(rid)
                trail.append(rel)
                stack.append(iter(expand(other, types, out, inc)))
                break
        else:
            stack.pop()
            if trail:
                used.discard(trail.pop().id)
    return count
