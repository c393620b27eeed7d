"""`SHORTEST k` (k > 1), `SHORTEST k GROUPS` (k > 1), `ANY k` (k > 1), and any of them over a
quantifier whose minimum is above 1, over one quantified relationship -> a breadth-first search
over trails, per start node, that stops as soon as every end node it could still give rows for
has what its selector keeps.

`selector_bfs.py` searches nodes, which answers the least length only (a shortest walk is a
trail).  The k shortest trails, or every trail of the k least lengths, may revisit nodes, so this
search keeps trails: level d holds every trail of length d from the start (each a chain of
(node, relationship, previous) links, checked for a repeated relationship as it grows), so the
trails to each end node arrive in order of length.  A partition (the start and one end node) takes
trails while its selector wants more: `SHORTEST k` and `ANY k` the first k (the k shortest are
among the k an `ANY k` may give), `GROUPS` every trail of its first k lengths; at the end of a
level a full partition closes.  The end nodes that could give rows at all are known before the
search (those a walk reaches within the quantifier's maximum and the end node's labels and
property map accept, the start itself when a trail can close back on it), so once all of them
are closed the search stops: what enumeration would still visit is never built.  Left to the
enumerating matcher: a pre-filter WHERE, a quantified path pattern, more than one relationship.

Rows come out by length, then in the order the search found them.  The deadline and the cancel
token are polled once per trail taken off a level.
"""
from __future__ import annotations

from .selector_bfs import ShortestSearch


def applies(inner, selector, where) -> bool:
    """Whether the part `inner` (a `PartMatcher`) under `selector` can take the trail search."""
    if selector is None or where is not None or selector.kind not in ("shortest", "groups", "any"):
        return False
    if len(inner.steps) != 1:
        return False
    st = inner.steps[0]
    return st.group is None and st.rel.length is not None and not st.rel_bound


def _has(link, rel) -> bool:
    """Whether the trail ending in `link` walked `rel`."""
    while link is not None and link[1] is not None:
        if link[1] is rel:
            return True
        link = link[2]
    return False


def _hops(link) -> list:
    out = []
    while link[1] is not None:
        out.append(link[1])
        link = link[2]
    out.reverse()
    return out


class TrailSearch(ShortestSearch):
    def __init__(self, inner, selector) -> None:
        super().__init__(inner, selector)
        self.kind = selector.kind
        self.k = selector.k
        lo = self.st.rel.length[0]
        self.lo = 1 if lo is None else lo

    def _ends(self, g, src, row, ctx, taken) -> set:
        """The ids of the nodes a trail from `src` may end at and give a row for (a superset)."""
        st = self.st
        if st.node_bound:
            return {id(row[st.node_slot])}
        order, depth, _ = self._bfs(g, src, row, ctx, taken)
        ends = [v for v in order if v is not src]
        if self.lo == 0 or any(id(u) in depth for _, u in self._edges_into(g, src, row, ctx, taken)):
            ends.append(src)
        labels = st.node.labels
        check = st.node_check
        out = set()
        for v in ends:
            if labels and not all(lb in v.labels for lb in labels):
                continue
            if check is not None:
                probe = row + ([],) + ((v,) if not st.node_bound else ())
                if not check(v, probe, ctx):
                    continue
            out.add(id(v))
        return out

    def _edges_into(self, g, node, row, ctx, taken):
        """The relationships a walk along the pattern takes into `node`, with their far ends."""
        check = self.st.rel_check
        probe = row + ([],)
        for rel, other in g.expand(node, self.st.types, self.inc, self.out):
            if id(rel) in taken or (check is not None and not check(rel, probe, ctx)):
                continue
            yield rel, other

    def _from(self, src, row, ctx):
        g = ctx.graph
        st = self.st
        if st.node_bound and row[st.node_slot] is None:
            return
        taken = self._taken(row)
        open_ = self._ends(g, src, row, ctx, taken)
        k, groups = self.k, self.kind == "groups"
        lo, hi = self.lo, self.hi
        timed = ctx.deadline is not None
        taken_by: dict[int, list] = {}  # id(end) -> [rows given, lengths given]
        level: list = [(src, None, None)]
        d = 0
        while level and open_:
            if d >= lo:
                for link in level:
                    v = link[0]
                    key = id(v)
                    if key not in open_:
                        continue
                    got = taken_by.get(key)
                    if got is None:
                        got = taken_by[key] = [0, []]
                    if not groups and got[0] >= k:
                        continue
                    n = 0
                    for r in self._emit(row, v, [_hops(link)], ctx):
                        n += 1
                        yield r
                    if n:
                        got[0] += n
                        if not got[1] or got[1][-1] != d:
                            got[1].append(d)
                for key, got in taken_by.items():
                    if key in open_ and (len(got[1]) >= k if groups else got[0] >= k):
                        open_.discard(key)
            if hi is not None and d >= hi:
                break
            nxt = []
            for link in level:
                if timed:
                    ctx.check_deadline()
                for rel, w in self._edges(g, link[0], row, ctx, taken):
                    if not _has(link, rel):
                        nxt.append((w, rel, link))
            level = nxt
            d += 1
