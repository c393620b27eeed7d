"""Path selectors (`ANY k`, `SHORTEST k`, `ALL SHORTEST`, `SHORTEST k GROUPS`, `ALL`) and the WHERE
of a parenthesised whole pattern -> a wrapper around one part's matcher.

Per incoming row, the part's matches are filtered by the pattern's own WHERE (a pre-filter: it
runs before the selection, where the MATCH's WHERE runs after it), then partitioned by their pair
of end nodes (the first and the last node of the part), and each partition keeps what the
selector says: `ANY k` the first k found (streamed: the search stops taking rows of a full
partition), `SHORTEST k` the k of least length (ties in the order found), `SHORTEST k GROUPS`
every path whose length is among the k least lengths, `ALL` every path.  Partitions come out in
the order their first path was found.  Matches are enumerated by the part's matcher (trail
semantics, an explicit stack: no recursion), so a selector bounds the rows, not the search --
except over one quantified relationship without a pre-filter: `SHORTEST 1` / `ANY SHORTEST` /
`ALL SHORTEST` / `ANY` with a minimum of 0 or 1 are a breadth-first search over nodes
(`selector_bfs.py`), the other selectors one over trails that stops once every end node has what
its selector keeps (`selector_trails.py`)."""
from __future__ import annotations

from ..values import Relationship
from . import selector_bfs, selector_trails


class SelectiveMatcher:
    def __init__(self, inner, selector, where) -> None:
        """`inner`: the part's `PartMatcher`; `selector`: its `ast.PathSelector` or None; `where`:
        the compiled pre-filter (row, ctx) -> value, or None."""
        self.inner = inner
        self.selector = selector
        self.where = where
        self.spec = inner.spec
        self.part = inner.part
        self.scope = inner.scope
        self.all_rel_slots = inner.all_rel_slots
        self.first_slot = inner.node_slots_in_order[0]
        self.last_slot = inner.node_slots_in_order[-1]
        self.rel_slots = inner.rel_slots_in_order
        # one quantified relationship: a breadth-first search over nodes (`SHORTEST 1`, `ALL SHORTEST`,
        # `ANY`) or over trails (the other selectors, or a minimum above 1)
        self.search = None
        if selector_bfs.applies(inner, selector, where):
            self.search = selector_bfs.ShortestSearch(inner, selector)
        elif selector_trails.applies(inner, selector, where):
            self.search = selector_trails.TrailSearch(inner, selector)

    def _length(self, row) -> int:
        n = 0
        for s in self.rel_slots:
            v = row[s]
            n += 1 if isinstance(v, Relationship) else len(v)
        return n

    def run(self, row, ctx):
        if self.search is not None:
            yield from self.search.run(row, ctx)
            return
        where = self.where
        sel = self.selector
        kind = "all" if sel is None else sel.kind
        timed = ctx.deadline is not None
        first, last = self.first_slot, self.last_slot
        found: dict[tuple[int, int], list] = {}
        for r in self.inner.run(row, ctx):
            if timed:
                ctx.check_deadline()
            if where is not None and where(r, ctx) is not True:
                continue
            if kind == "all":
                yield r
                continue
            key = (id(r[first]), id(r[last]))
            rows = found.setdefault(key, [])
            if kind == "any":
                if len(rows) < sel.k:
                    rows.append(r)
                    yield r
                continue
            rows.append((self._length(r), len(rows), r))
        if kind in ("all", "any"):
            return
        for rows in found.values():
            rows.sort(key=lambda t: (t[0], t[1]))
            if kind == "shortest":
                chosen = rows[:sel.k]
            else:  # groups: the k least lengths, every path of each
                lengths = sorted({t[0] for t in rows})[:sel.k]
                chosen = [t for t in rows if t[0] in lengths]
            for t in chosen:
                yield t[2]
