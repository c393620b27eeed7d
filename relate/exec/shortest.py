"""`shortestPath(...)` / `allShortestPaths(...)` pattern parts -> row generators.

A `ShortestMatcher` stands where a `PartMatcher` would in a MATCH.  The part has exactly one
relationship pattern between two node patterns.  Per input row it first finds the two end nodes
(each bound earlier or matched here, through a one-node `PartMatcher`; unbound ends give every
pair), then runs a breadth-first search from the left end with an explicit frontier list, level
by level, following the relationship types and direction, skipping relationships rejected by the
inline property map or already used by earlier parts of the same MATCH.  The first level that
reaches the right end gives the answer: one path (the first found) for `shortestPath`, every path
of that length for `allShortestPaths`.  The row grows by the end nodes, then the relationship
value (a list for `*`, a single relationship for a plain hop), then the path when it is named.

Neo4j's choices where openCypher is silent: no path gives no row; equal ends give the empty path
when the lower bound is 0 and nothing otherwise; lower bounds above 1 are refused.
"""
from __future__ import annotations

from ..errors import CypherSemanticError, CypherSyntaxError
from ..syntax import ast as A
from ..values import Path, Relationship
from .compile import Compiler, Scope
from .match import PartMatcher, _props_check, hidden_name


class ShortestMatcher:
    def __init__(self, part: A.PatternPart, scope: Scope, compiler: Compiler, graph,
                 prior_rel_slots: list[int], k: int) -> None:
        el = part.element
        self.part = part
        self.all_shortest = part.shortest == "allShortestPaths"
        if len(el.rels) != 1:
            raise CypherSyntaxError("UnsupportedClause",
                                    f"{part.shortest}() needs a pattern with exactly one relationship")
        rel = el.rels[0]
        if rel.length is None:
            lo, hi = 1, 1
        else:
            lo, hi = rel.length
            lo = 1 if lo is None else lo
        if lo > 1:
            raise CypherSyntaxError("UnsupportedClause",
                                    f"{part.shortest}() supports a minimal length of 0 or 1 only")
        self.lo, self.hi = lo, hi
        self.single = rel.length is None
        self.direction = rel.direction
        self.types = tuple(dict.fromkeys(rel.types))
        # the two ends: one-node parts, the right one seeing what the left one bound
        left = PartMatcher(A.PatternPart(None, A.PatternElement((el.nodes[0],), ()), None, part.pos),
                           scope, compiler, graph, [], k)
        right = PartMatcher(A.PatternPart(None, A.PatternElement((el.nodes[1],), ()), None, part.pos),
                            left.scope, compiler, graph, [], k)
        self.ends = (left, right)
        self.left_slot = left.anchor_slot
        self.right_slot = right.anchor_slot
        scope = right.scope
        self.rel_check = _props_check(compiler, rel.properties, scope)
        rname = rel.variable or hidden_name("r", rel.pos, 0)
        if scope.has(rname):
            raise CypherSemanticError("VariableAlreadyBound", f"Variable `{rname}` already declared")
        scope, self.rel_slot = scope.extended(rname)
        self.path_slot = -1
        if part.variable:
            if scope.has(part.variable):
                raise CypherSemanticError("VariableAlreadyBound",
                                          f"Variable `{part.variable}` already declared")
            scope, self.path_slot = scope.extended(part.variable)
        self.scope = scope
        self.rel_slots = list(prior_rel_slots)
        self.all_rel_slots = self.rel_slots + [self.rel_slot]
        # what the planner's plan description reads
        self.anchor = 0
        self.anchor_seek = left.anchor_seek
        self.anchor_labels = left.anchor_labels

    # ------------------------------------------------------------------ running
    def run(self, row, ctx):
        left, right = self.ends
        for r0 in left.anchors(row, ctx):
            for r in right.anchors(r0, ctx):
                src, dst = r[self.left_slot], r[self.right_slot]
                if src is None or dst is None:
                    continue
                for nodes, rels in self._search(r, src, dst, ctx):
                    value = rels[0] if self.single else list(rels)
                    out = r + (value,)
                    if self.path_slot >= 0:
                        out = out + (Path(tuple(nodes), tuple(rels)),)
                    yield out

    def _taken(self, row) -> set[int]:
        """Relationships earlier parts of the same MATCH already hold (uniqueness spans a MATCH)."""
        taken: set[int] = set()
        for s in self.rel_slots:
            v = row[s] if s < len(row) else None
            if isinstance(v, Relationship):
                taken.add(id(v))
            elif isinstance(v, list):
                taken.update(id(x) for x in v)
        return taken

    def _neighbours(self, g, node):
        types = self.types
        d = self.direction
        if d is not A.Direction.IN:
            adj = g.out_adj.get(node.id, {})
            for t in (types or adj.keys()):
                for rel in adj.get(t, {}).values():
                    yield rel, rel.end
        if d is not A.Direction.OUT:
            adj = g.in_adj.get(node.id, {})
            for t in (types or adj.keys()):
                for rel in adj.get(t, {}).values():
                    if d is A.Direction.BOTH and rel.start is rel.end:
                        continue
                    yield rel, rel.start

    def _search(self, row, src, dst, ctx):
        """Breadth-first, level by level; yields (nodes, rels) of the shortest path(s)."""
        if src.id == dst.id:
            if self.lo == 0:
                yield [src], []
            return
        g = ctx.graph
        taken = self._taken(row) if self.rel_slots else ()
        check = self.rel_check
        timed = ctx.deadline is not None
        hi = self.hi
        every = self.all_shortest
        # node id -> [(relationship, previous node)] over which it was first reached
        preds: dict[int, list] = {src.id: []}
        depth_of = {src.id: 0}
        frontier = [src]
        depth = 0
        found = False
        while frontier and not found and (hi is None or depth < hi):
            depth += 1
            nxt = []
            for node in frontier:
                if timed:
                    ctx.check_deadline()
                for rel, other in self._neighbours(g, node):
                    if taken and id(rel) in taken:
                        continue
                    seen = depth_of.get(other.id)
                    if seen is not None and (seen < depth or not every):
                        continue
                    if check is not None and not check(rel, row, ctx):
                        continue
                    if seen is None:
                        depth_of[other.id] = depth
                        preds[other.id] = [(rel, node)]
                        nxt.append(other)
                    else:
                        preds[other.id].append((rel, node))
                    if other.id == dst.id:
                        found = True
                        if not every:
                            break
                if found and not every:
                    break
            frontier = nxt
        if not found:
            return
        # walk the predecessor lists back from the far end, explicit stack, no recursion
        stack = [(dst, [], [])]
        while stack:
            node, rels, nodes = stack.pop()
            if node.id == src.id:
                yield [src] + nodes[::-1], rels[::-1]
                if not every:
                    return
                continue
            options = preds[node.id]
            for rel, prev in reversed(options):
                stack.append((prev, rels + [rel], nodes + [node]))
