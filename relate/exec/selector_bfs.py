"""`SHORTEST 1` / `ANY SHORTEST` and `ALL SHORTEST` (and `ANY`, which a shortest path answers) over
one quantified relationship (`(a)-[:R]->+(b)`, `{0,n}`, `{1,n}`, or `*`) -> a breadth-first
search per start node, instead of enumerating every trail and keeping the shortest.

Why this is the same answer: a shortest walk between two different nodes repeats no node, so it
is a trail, and breadth-first search finds exactly the walks of least length (with every
predecessor at the level before kept, all of them for `ALL SHORTEST`).  The one partition it
cannot reach that way is a start node's own (a closed trail back to it, when the quantifier's
minimum is 1): that is the shortest path from the start to the far end `u` of each closing
relationship `e`, searched without `e`, plus `e` -- one more search per relationship at the
start, only when the start could also be the end.  Quantifiers with a minimum above 1 need trails
that are not simple paths, so they go to the search over trails (`selector_trails.py`).

Rows come out by length, then in the order the search reached their end node.  The deadline and
the cancel token are polled once per node taken off the queue.
"""
from __future__ import annotations

from ..syntax import ast as A


def applies(inner, selector, where) -> bool:
    """Whether the part `inner` (a `PartMatcher`) under `selector` can take the search."""
    if selector is None or where is not None or selector.k != 1 or selector.kind not in ("shortest", "groups", "any"):
        return False
    if len(inner.steps) != 1:
        return False
    st = inner.steps[0]
    if st.group is not None or st.rel.length is None or st.rel_bound:
        return False
    lo = st.rel.length[0]
    return lo is None or lo <= 1


class ShortestSearch:
    def __init__(self, inner, selector) -> None:
        self.inner = inner
        self.all_paths = selector.kind == "groups"
        st = inner.steps[0]
        self.st = st
        lo, hi = st.rel.length
        self.lo = 1 if lo is None else lo
        self.hi = hi
        self.out = st.direction is not A.Direction.IN
        self.inc = st.direction is not A.Direction.OUT
        self.used = [s for s in inner.all_rel_slots if s != st.rel_slot]

    def run(self, row, ctx):
        inner, st = self.inner, self.st
        for r in inner.anchors(row, ctx):
            src = r[st.from_slot]
            if src is None:
                continue
            yield from self._from(src, r, ctx)

    # ------------------------------------------------------------------ the search
    def _taken(self, row) -> set:
        taken = set()
        for s in self.used:
            if s < len(row):
                v = row[s]
                if isinstance(v, list):
                    taken.update(id(x) for x in v)
                elif v is not None:
                    taken.add(id(v))
        return taken

    def _edges(self, g, node, row, ctx, taken, avoid=None):
        st = self.st
        check = st.rel_check
        probe = row + ([],)
        for rel, other in g.expand(node, st.types, self.out, self.inc):
            if id(rel) in taken or rel is avoid:
                continue
            if check is not None and not check(rel, probe, ctx):
                continue
            yield rel, other

    def _bfs(self, g, src, row, ctx, taken, target=None, avoid=None):
        """Levels from `src`: (order reached, {id: depth}, {id: [(rel, prev)]}); stops after the
        level that reaches `target` when one is given.  `src` itself is never re-entered."""
        all_paths = self.all_paths
        hi = self.hi
        timed = ctx.deadline is not None
        depth = {id(src): 0}
        preds: dict[int, list] = {id(src): []}
        order = [src]
        frontier = [src]
        d = 0
        while frontier and (hi is None or d < hi):
            if target is not None and id(target) in depth:
                break
            nxt = []
            for u in frontier:
                if timed:
                    ctx.check_deadline()
                for rel, v in self._edges(g, u, row, ctx, taken, avoid):
                    k = id(v)
                    dv = depth.get(k)
                    if dv is None:
                        depth[k] = d + 1
                        preds[k] = [(rel, u)]
                        order.append(v)
                        nxt.append(v)
                    elif dv == d + 1 and all_paths and k != id(src):
                        preds[k].append((rel, u))
            frontier = nxt
            d += 1
        return order, depth, preds

    def _paths(self, preds, src, v):
        """The hop lists from `src` to `v` (the first one only unless every path is wanted)."""
        out = []
        stack = [(v, [])]
        while stack:
            node, tail = stack.pop()
            if node is src:
                out.append(tail)
                if not self.all_paths:
                    break
                continue
            ps = preds[id(node)]
            if not self.all_paths:
                ps = ps[:1]
            for rel, prev in reversed(ps):
                stack.append((prev, [rel] + tail))
        return out

    def _from(self, src, row, ctx):
        g = ctx.graph
        st = self.st
        target = None
        if st.node_bound:
            target = row[st.node_slot]
            if target is None:
                return
        taken = self._taken(row)
        order, depth, preds = self._bfs(g, src, row, ctx, taken, target)
        for v in order:
            if target is not None and v is not target:
                continue
            if v is src:
                if self.lo == 0:
                    yield from self._emit(row, v, [[]], ctx)
                else:
                    yield from self._emit(row, v, self._closed(g, src, row, ctx, taken), ctx)
                continue
            if depth[id(v)] < self.lo:
                continue
            yield from self._emit(row, v, self._paths(preds, src, v), ctx)

    def _closed(self, g, src, row, ctx, taken):
        """The least closed trails from `src` back to it: per closing relationship `e` (from `u`
        into `src` along the walk), a shortest path `src` ~> `u` without `e`, then `e`."""
        st = self.st
        if st.node.labels and not all(lb in src.labels for lb in st.node.labels):
            return []
        best: list = []
        best_len = None
        check = st.rel_check
        probe = row + ([],)
        # a closing relationship walked along the pattern ends at src: look from src the other way
        for e, u in g.expand(src, st.types, self.inc, self.out):
            if id(e) in taken or (check is not None and not check(e, probe, ctx)):
                continue
            if u is src:
                found = [[e]]
            else:
                _, depth, preds = self._bfs(g, src, row, ctx, taken, u, e)
                if id(u) not in depth:
                    continue
                found = [p + [e] for p in self._paths(preds, src, u)]
            n = len(found[0])
            if self.hi is not None and n > self.hi:
                continue
            if best_len is None or n < best_len:
                best, best_len = found, n
            elif n == best_len and self.all_paths:
                best.extend(found)
        return best if self.all_paths else best[:1]

    def _emit(self, row, node, paths, ctx):
        st, inner = self.st, self.inner
        labels = st.node.labels
        if labels and not all(lb in node.labels for lb in labels):
            return
        for hops in paths:
            listed = list(reversed(hops)) if st.reverse else hops
            r = row + (listed,)
            if not st.node_bound:
                r = r + (node,)
            if st.node_check is not None and not st.node_check(node, r, ctx):
                continue
            if inner.path_slot >= 0:
                r = r + (inner._path(r),)
            yield r
