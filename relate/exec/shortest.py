"""`shortestPath(...)` / `allShortestPaths(...)` pattern parts -> row generators.

A `ShortestMatcher` stands where a `PartMatcher` would in a MATCH.  The part has exactly one
relationship pattern between two node patterns.  Per input row it first finds the two end nodes
(each bound earlier or matched here, through a one-node `PartMatcher` whose spec the planner
gives; unbound ends give every pair), then searches breadth-first with explicit frontier lists,
level by level, following the relationship types and direction, skipping relationships rejected
by the inline property map or already used by earlier parts of the same MATCH.  `shortestPath`
grows the smaller of two searches, one from each end, and takes the first path where they meet;
`allShortestPaths` searches from the left end and gives every path of the first level that
reaches the right end.  The row grows by the end nodes, then the relationship
value (a list for `*`, a single relationship for a plain hop), then the path when it is named.

Neo4j's choices where openCypher is silent: no path gives no row; equal ends give the empty path
when the lower bound is 0 and nothing otherwise; lower bounds above 1 are refused.
"""
from __future__ import annotations

from ..errors import E
from ..syntax import ast as A
from ..values import Path, Relationship
from .compile import Compiler, Scope
from .match import PartMatcher, _element_check, bind_path, hidden_name


class ShortestMatcher:
    def __init__(self, part: A.PatternPart, scope: Scope, compiler: Compiler, ends,
                 prior_rel_slots: list[int], during=()) -> None:
        """`during`: (variable, predicate, wanted value) tests each relationship of the path must
        pass, applied while searching (`plan/shortest_filters.py`)."""
        el = part.element
        self.part = part
        self.all_shortest = part.shortest == "allShortestPaths"
        if len(el.rels) != 1:
            raise E.Internal.Internal(f"matcher: {part.shortest}() over {len(el.rels)} relationships")
        rel = el.rels[0]
        if rel.length is None:
            lo, hi = 1, 1
        else:
            lo, hi = rel.length
            lo = 1 if lo is None else lo
        if lo > 1:
            raise E.Internal.Internal(f"matcher: {part.shortest}() from length {lo}")
        self.lo, self.hi = lo, hi
        self.single = rel.length is None
        self.direction = rel.direction
        self.types = tuple(dict.fromkeys(rel.types))
        # the two ends: one-node parts (`ends`: their specs, from the planner), the right one
        # seeing what the left one bound
        left = PartMatcher(ends[0], scope, compiler, [])
        right = PartMatcher(ends[1], left.scope, compiler, [])
        self.ends = (left, right)
        self.left_slot = left.anchor_slot
        self.right_slot = right.anchor_slot
        scope = right.scope
        self.rel_check = _with_filters(_element_check(compiler, rel.properties, rel.type_expr, scope, True), during,
                                       scope, compiler)
        rname = rel.variable or hidden_name("r", rel.pos, 0)
        if scope.has(rname):
            raise E.Internal.Internal(f"matcher: relationship `{rname}` is already bound")
        scope, self.rel_slot = scope.extended(rname)
        scope, self.path_slot = bind_path(part, scope)
        self.scope = scope
        self.rel_slots = list(prior_rel_slots)
        self.all_rel_slots = self.rel_slots + [self.rel_slot]
        self.spec = None  # no one MatchSpec: the planner's plan description reads `part`

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

    def _neighbours(self, g, node) -> list:
        d = self.direction
        return g.expand(node, self.types, d is not A.Direction.IN, d is not A.Direction.OUT)

    def _search(self, row, src, dst, ctx):
        """Yields (nodes, rels) of the shortest path (`_meet`) or of every shortest path
        (breadth-first from the left end, level by level, keeping every predecessor)."""
        if src.id == dst.id:
            if self.lo == 0:
                yield [src], []
            return
        if not self.all_shortest:
            found = self._meet(row, src, dst, ctx)
            if found is not None:
                yield found
            return
        g = ctx.graph
        taken = self._taken(row) if self.rel_slots else ()
        check = self.rel_check
        timed = ctx.deadline is not None
        hi = self.hi
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
                    if seen is not None and seen < depth:
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
            frontier = nxt
        if not found:
            return
        # walk the predecessor lists back from the far end, explicit stack, no recursion
        stack = [(dst, [], [])]
        while stack:
            node, rels, nodes = stack.pop()
            if node.id == src.id:
                yield [src] + nodes[::-1], rels[::-1]
                continue
            options = preds[node.id]
            for rel, prev in reversed(options):
                stack.append((prev, rels + [rel], nodes + [node]))

    def _meet(self, row, src, dst, ctx):
        """One shortest path by a search from both ends, each step growing the smaller frontier
        by a whole level; -> (nodes, rels) or None.

        Before a level is grown the two searched regions are disjoint, so no path is shorter
        than the two depths added; any node the new level shares with the other side therefore
        closes a path of exactly the shortest length, and the first one found is taken."""
        g = ctx.graph
        taken = self._taken(row) if self.rel_slots else ()
        check = self.rel_check
        timed = ctx.deadline is not None
        hi = self.hi
        d = self.direction
        ways = ((d is not A.Direction.IN, d is not A.Direction.OUT),    # from the left end
                (d is not A.Direction.OUT, d is not A.Direction.IN))    # from the right end, reversed
        types = self.types
        # node id -> (relationship, neighbour one step closer to that side's end)
        reached = ({src.id: None}, {dst.id: None})
        frontiers = ([src], [dst])
        depth = 0
        while frontiers[0] and frontiers[1] and (hi is None or depth < hi):
            side = 0 if len(frontiers[0]) <= len(frontiers[1]) else 1
            out, inc = ways[side]
            mine, theirs = reached[side], reached[1 - side]
            nxt = []
            for node in frontiers[side]:
                if timed:
                    ctx.check_deadline()
                for rel, other in g.expand(node, types, out, inc):
                    oid = other.id
                    if oid in mine or (taken and id(rel) in taken):
                        continue
                    if check is not None and not check(rel, row, ctx):
                        continue
                    mine[oid] = (rel, node)
                    if oid in theirs:
                        return self._joined(other, reached)
                    nxt.append(other)
            frontiers = (nxt, frontiers[1]) if side == 0 else (frontiers[0], nxt)
            depth += 1
        return None

    @staticmethod
    def _joined(middle, reached):
        """The path through `middle`, from the two searches' back-pointers."""
        left, right = _walk_back(middle, reached[0]), _walk_back(middle, reached[1])
        nodes = [n for n, _ in reversed(left)] + [middle] + [n for n, _ in right]
        rels = [r for _, r in reversed(left)] + [r for _, r in right]
        return nodes, rels


def _with_filters(check, during, scope: Scope, compiler: Compiler):
    """The relationship check (rel, row, ctx) -> bool: the inline map's, then each search filter,
    which reads the relationship as its variable, one slot past the row."""
    if not during:
        return check
    tests = [(compiler.compile(pred, scope.extended(var)[0]), want) for var, pred, want in during]

    def filtered(rel, row, ctx):
        if check is not None and not check(rel, row, ctx):
            return False
        ext = row + (rel,)
        for f, want in tests:
            if f(ext, ctx) is not want:
                return False
        return True
    return filtered


def _walk_back(node, reached) -> list:
    """[(neighbour, relationship to it)] from `node` back to the end its search started at."""
    out = []
    step = reached[node.id]
    while step is not None:
        rel, nxt = step
        out.append((nxt, rel))
        step = reached[nxt.id]
    return out
