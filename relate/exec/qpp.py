"""Quantified path patterns (`(s) ((a)-[r:R]->(b) WHERE ...){1,3} (t)`) -> one step of a part's walk.

A `QppStep` stands in a `PartMatcher`'s walk where a relationship would.  Its inner element is
matched by an inner `PartMatcher` whose first node is bound to where the previous iteration ended
(the row it reads is the outer row plus that node).  The iterations are searched depth first
with an explicit stack (no recursion per hop); each stack entry is a node reached, the
relationships used so far (trail semantics: no relationship twice in a path, nor one an earlier
part of the MATCH holds) and the group variables' lists.  Every entry of depth lo..hi whose node
satisfies the pattern's next node is a row: the outer row plus the list of every relationship
walked (the hidden relationship slot: paths and uniqueness read it as they read a
variable-length list), one list per group variable, then the end node.  Walked right to left
(the anchor is right of it), the inner element is matched reversed and the lists turned back."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..syntax import ast as A
from ..values import Relationship
from .compile import Compiler, Scope

_FLIP = {A.Direction.OUT: A.Direction.IN, A.Direction.IN: A.Direction.OUT, A.Direction.BOTH: A.Direction.BOTH}


@dataclass(frozen=True, slots=True)
class _Hop:
    rel: int
    reverse: bool


@dataclass(frozen=True, slots=True)
class _InnerSpec:
    """What `PartMatcher` reads of a `MatchSpec`: the inner element walked from its first node."""

    part: A.PatternPart
    names: tuple[str, ...]
    hops: tuple[_Hop, ...]
    node_check: A.Expr | None
    anchor: int = 0
    seek: None = None
    tests: tuple = ()


def reversed_element(el: A.PatternElement) -> A.PatternElement:
    rels = tuple(replace(r, direction=_FLIP[r.direction]) for r in reversed(el.rels))
    return A.PatternElement(tuple(reversed(el.nodes)), rels)


class QppStep:
    def __init__(self, q: A.QuantifiedPath, reverse: bool, before: Scope, compiler: Compiler,
                 group_names: list[str], matcher, hidden_name) -> None:
        """`matcher`, `hidden_name`: `match.PartMatcher` and `match.hidden_name` (passed in: match.py
        builds this step)."""
        self.q = q
        self.lo, self.hi = q.lo, q.hi
        self.reverse = reverse
        el = reversed_element(q.element) if reverse else q.element
        names = tuple(n.variable or hidden_name("q", n.pos, i) for i, n in enumerate(el.nodes))
        spec = _InnerSpec(A.PatternPart(None, el, None, q.pos), names,
                          tuple(_Hop(i, False) for i in range(len(el.rels))), el.nodes[0].properties)
        inner_scope, self.start_slot = Scope(before.slots).extended(names[0])
        self.inner = matcher(spec, inner_scope, compiler, [])
        iscope = self.inner.scope
        self.where = compiler.compile(q.where, iscope) if q.where is not None else None
        self.group_names = group_names
        self.group_slots = [iscope.slot(n) for n in group_names]
        self.rel_slots = self.inner.rel_slots_in_order
        self.last_slot = self.inner.node_slots_in_order[-1]

    def run(self, stream, st, ctx, used):
        """Rows of `stream` extended as the module says (`st`: the outer `Step`)."""
        lo, hi = self.lo, self.hi
        labels = st.node.labels
        inner = self.inner
        where = self.where
        rel_slots, group_slots, last_slot = self.rel_slots, self.group_slots, self.last_slot
        empty = ((),) * len(group_slots)
        timed = ctx.deadline is not None
        for row in stream:
            src = row[st.from_slot]
            if src is None:
                continue
            taken = {id(row[s]) for s in used if s < len(row) and isinstance(row[s], Relationship)}
            for s in used:
                if s < len(row) and isinstance(row[s], list):
                    taken.update(id(x) for x in row[s])
            stack = [(src, 0, (), empty)]
            while stack:
                if timed:
                    ctx.check_deadline()
                node, depth, rels, groups = stack.pop()
                if depth >= lo:
                    out = self._emit(row, st, node, rels, groups, labels, ctx)
                    if out is not None:
                        yield out
                if hi is not None and depth >= hi:
                    continue
                walked = {id(x) for x in rels}
                nxt = []
                for ir in inner.run(row + (node,), ctx):
                    its = tuple(ir[s] for s in rel_slots)
                    if any(id(x) in taken or id(x) in walked for x in its):
                        continue
                    if where is not None and where(ir, ctx) is not True:
                        continue
                    nxt.append((ir[last_slot], depth + 1, rels + its,
                                tuple(g + (ir[s],) for g, s in zip(groups, group_slots))))
                stack.extend(reversed(nxt))

    def _emit(self, row, st, node, rels, groups, labels, ctx):
        if labels and not all(lb in node.labels for lb in labels):
            return None
        if st.node_bound and row[st.node_slot] is not node:
            return None
        if self.reverse:
            rels = rels[::-1]
            groups = tuple(g[::-1] for g in groups)
        r = row + (list(rels),) + tuple(list(g) for g in groups)
        if not st.node_bound:
            r = r + (node,)
        if st.node_check is not None and not st.node_check(node, r, ctx):
            return None
        return r
