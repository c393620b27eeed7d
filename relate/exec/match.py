"""Pattern parts, with the access path the planner chose (`plan/match_spec.py`) -> row generators.

A `PartMatcher` is built once per plan from one part's `MatchSpec` and the scope before it.  It
takes the anchor's candidates as the spec says (the bound node, an index seek, the smallest of the
anchor's labels, or every node; the spec's scan filter and the inline map check), then walks the
part's relationships outward from the anchor, right then left.  Each step extends
the slot tuple; variable-length steps iterate with an explicit stack, never recursion.  Rows grow
by appending, so the scope after the part is the scope before it plus the new names in walk order.
Anonymous elements get hidden names (with a space, which no user variable can hold).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import E
from ..syntax import ast as A
from ..values import Node, Path, Relationship, type_name
from ..values.compare import equals
from . import scan_filter as SF
from .compile import Compiler, Scope
from .index_seek import CompositeSeek, NodeSeek, PointSeek, SeekKind, TextSeek
from .labels import label_test
from .qpp import QppStep
from ..semantic.checks.path_patterns import group_variables


def hidden_name(kind: str, pos: int, k: int) -> str:
    return f" {kind}{pos}_{k}"


def bind_path(part: A.PatternPart, scope: Scope) -> tuple[Scope, int]:
    """The scope with the part's path variable (`p = ...`) added, and its slot (-1: unnamed)."""
    if not part.variable:
        return scope, -1
    if scope.has(part.variable):
        raise E.Internal.Internal(f"matcher: path `{part.variable}` is already bound")
    return scope.extended(part.variable)


def is_hidden(name: str) -> bool:
    return name.startswith(" ")


def _element_check(compiler: Compiler, props: A.Expr | None, label_expr, scope: Scope, rel: bool):
    """The inline map check and, for a label or type expression, its test: (entity, row, ctx) -> bool."""
    check = _props_check(compiler, props, scope)
    if label_expr is None:
        return check
    test = label_test(label_expr, lambda e: compiler.compile(e, scope), rel)
    if rel:
        if check is None:
            return lambda ent, row, ctx: test(ent.type, row, ctx)
        return lambda ent, row, ctx: test(ent.type, row, ctx) and check(ent, row, ctx)
    if check is None:
        return lambda ent, row, ctx: test(ent.labels, row, ctx)
    return lambda ent, row, ctx: test(ent.labels, row, ctx) and check(ent, row, ctx)


def _props_check(compiler: Compiler, props: A.Expr | None, scope: Scope):
    """A closure (entity, row, ctx) -> bool for an inline property map, or None."""
    if props is None:
        return None
    if isinstance(props, A.MapLiteral):
        entries = [(k, compiler.compile(v, scope)) for k, v in props.entries]

        def check(entity, row, ctx):
            p = entity.props
            for k, f in entries:
                if equals(p.get(k), f(row, ctx)) is not True:
                    return False
            return True
        return check
    whole = compiler.compile(props, scope)

    def check_param(entity, row, ctx):
        m = whole(row, ctx)
        if m is None:
            return False
        if not isinstance(m, dict):
            raise E.Type.InvalidArgumentType(f"property map expected, got {type_name(m)}")
        p = entity.props
        return all(equals(p.get(k), v) is True for k, v in m.items())
    return check_param


_FLIP = {A.Direction.OUT: A.Direction.IN, A.Direction.IN: A.Direction.OUT, A.Direction.BOTH: A.Direction.BOTH}


def _conjoined(compiler: Compiler, conjuncts, scope: Scope):
    """The conjuncts, joined by AND, compiled against `scope`."""
    e = conjuncts[0]
    for c in conjuncts[1:]:
        e = A.Binary(A.BinOp.AND, e, c, 0)
    return compiler.compile(e, scope)


@dataclass(slots=True)
class Step:
    """One relationship hop of a walk."""

    rel: A.RelPattern
    direction: A.Direction  # in walk order
    from_slot: int
    node: A.NodePattern
    rel_name: str
    node_name: str
    rel_slot: int = -1
    node_slot: int = -1
    node_bound: bool = False
    rel_bound: bool = False
    rel_check: object = None
    node_check: object = None
    types: tuple = ()  # the relationship types to follow, each once (`[:T|:T]` is `[:T]`)
    reverse: bool = False  # walked right to left: a variable-length list is stored reversed
    group: object = None  # a quantified path pattern's `qpp.QppStep`

    def __post_init__(self) -> None:
        self.types = tuple(dict.fromkeys(self.rel.types))


class PartMatcher:
    """Runs one pattern part as its `plan.match_spec.MatchSpec` says: the anchor's candidates
    (the bound node, an index seek, a label scan or every node, then the scan filter and the
    inline map check), then the hops in walk order.  Building it only assigns slots and
    compiles the spec's expressions."""

    def __init__(self, spec, scope: Scope, compiler: Compiler, prior_rel_slots: list[int]) -> None:
        part = spec.part
        el = part.element
        self.spec = spec
        self.part = part
        scope = Scope(scope.slots)
        outer_scope = scope
        names = spec.names
        rnames = [r.variable or hidden_name("r", r.pos, i) for i, r in enumerate(el.rels)]
        self.anchor = a = spec.anchor
        anchor_node = el.nodes[a]
        self.anchor_name = names[a]
        self.anchor_bound = scope.has(names[a])
        if self.anchor_bound:
            self.anchor_slot = scope.slot(names[a])
        else:
            scope, self.anchor_slot = scope.extended(names[a])
        self.anchor_labels = anchor_node.labels
        self.anchor_union = getattr(spec, "union", ())  # labels whose scans, merged, give the candidates
        self.anchor_check = _element_check(compiler, spec.node_check, anchor_node.label_expr, scope, False)
        seek = spec.seek
        # (type, key, value closure) when a relationship index answers the anchor
        self.anchor_seek = None
        self.node_seek = None  # a node index seek of another kind (`index_seek.NodeSeek`)
        if seek is not None and (seek.rel is not None or seek.kind is SeekKind.EQUAL):
            # (label or type, key, value closure): an equality, the common case, looked up inline
            self.anchor_seek = (seek.label, seek.key, compiler.compile(seek.value, outer_scope))
        elif seek is not None and seek.kind is SeekKind.COMPOSITE:
            cs = seek.range_conjuncts
            self.node_seek = CompositeSeek(
                seek.label, seek.index, tuple(k for k, _, _ in seek.equal),
                tuple(compiler.compile(v, outer_scope) for _, v, _ in seek.equal),
                tuple((op, compiler.compile(e, outer_scope)) for op, e in seek.bounds),
                _conjoined(compiler, cs, scope) if cs else None)
        elif seek is not None and seek.kind in (SeekKind.BBOX, SeekKind.DISTANCE):
            self.node_seek = PointSeek(seek.kind, seek.label, seek.index, compiler.compile(seek.value, outer_scope),
                                       compiler.compile(seek.other, outer_scope))
        elif seek is not None and seek.kind in (SeekKind.CONTAINS, SeekKind.SUFFIX):
            self.node_seek = TextSeek(seek.kind, seek.label, seek.index, compiler.compile(seek.value, outer_scope),
                                      _conjoined(compiler, seek.conjuncts, scope))
        elif seek is not None:
            cs = seek.conjuncts
            fallback = compiler.compile(cs[0] if len(cs) == 1 else A.Binary(A.BinOp.AND, cs[0], cs[1], 0), scope)
            self.node_seek = NodeSeek(
                seek.kind, seek.label, seek.key,
                None if seek.value is None else compiler.compile(seek.value, outer_scope),
                tuple((op, compiler.compile(e, outer_scope)) for op, e in seek.bounds), fallback)
        self.seek_ends = "" if seek is None or seek.rel is None else seek.ends  # a relationship index seek
        # the index answers for its own label; the others are still checked per node
        self.seek_other_labels = tuple(lb for lb in anchor_node.labels
                                       if seek is None or seek.rel is not None or lb != seek.label)
        self.scan_filter = None
        if spec.tests:
            self.scan_filter = SF.ScanFilter([
                SF.Test(t.key, t.op, None if t.value is None else compiler.compile(t.value, outer_scope), t.column)
                for t in spec.tests])
        self.steps: list[Step] = []
        node_slot = {a: self.anchor_slot}
        self.rel_slots = list(prior_rel_slots)
        self.own_rel_slots: list[int] = []
        for hop in spec.hops:
            i = hop.rel
            r = el.rels[i]
            if hop.reverse:
                frm, to = i + 1, i
                direction = _FLIP[r.direction]
            else:
                frm, to = i, i + 1
                direction = r.direction
            st = Step(r, direction, node_slot[frm], el.nodes[to], rnames[i], names[to])
            st.reverse = hop.reverse
            if r.group is not None:  # a quantified path pattern: its step binds the group variables
                gnames = [n for n, _ in group_variables(r.group)]
                st.group = QppStep(r.group, hop.reverse, scope, compiler, gnames, PartMatcher, hidden_name)
                scope, st.rel_slot = scope.extended(rnames[i])
                self.own_rel_slots.append(st.rel_slot)
                for n in gnames:
                    scope, _ = scope.extended(n)
            elif scope.has(rnames[i]):
                st.rel_bound = True
                st.rel_slot = scope.slot(rnames[i])
                # a relationship bound earlier still counts for this MATCH's uniqueness
                self.own_rel_slots.append(st.rel_slot)
            else:
                scope, st.rel_slot = scope.extended(rnames[i])
                self.own_rel_slots.append(st.rel_slot)
            if scope.has(names[to]):
                st.node_bound = True
                st.node_slot = scope.slot(names[to])
            else:
                scope, st.node_slot = scope.extended(names[to])
            node_slot[to] = st.node_slot
            st.rel_check = _element_check(compiler, r.properties, r.type_expr, scope, True)
            st.node_check = _element_check(compiler, el.nodes[to].properties, el.nodes[to].label_expr, scope, False)
            self.steps.append(st)
        self.node_slots_in_order = [node_slot[i] for i in range(len(el.nodes))]
        self.rel_slots_in_order = [next(s.rel_slot for s in self.steps if s.rel is r) for r in el.rels]
        scope, self.path_slot = bind_path(part, scope)
        self.scope = scope
        self.all_rel_slots = self.rel_slots + self.own_rel_slots
        # one new node and nothing else (`(a:L {k: r.x})`): `Match` reads `candidates` directly
        self.only_anchor = not self.anchor_bound and not self.steps and self.path_slot < 0
        # (label, key, value closure) when the candidates are exactly an index seek's answer
        self.plain_seek = (self.anchor_seek if self.only_anchor and self.anchor_seek is not None
                           and not self.seek_ends and self.scan_filter is None
                           and not self.seek_other_labels and self.anchor_check is None else None)

    # ------------------------------------------------------------------ running
    def anchors(self, row, ctx):
        if self.anchor_bound:
            v = row[self.anchor_slot]
            if v is None:
                return
            if not isinstance(v, Node):
                raise E.Type.InvalidArgumentType(f"expected a node, got {type_name(v)}")
            if all(lb in v.labels for lb in self.anchor_labels) and (
                    self.anchor_check is None or self.anchor_check(v, row, ctx)):
                yield row
            return
        timed = ctx.deadline is not None
        for node in self.candidates(row, ctx):
            if timed:
                ctx.check_deadline()
            yield row + (node,)

    def candidates(self, row, ctx) -> list:
        """The nodes an unbound anchor takes for this incoming row, as a list (a write later in
        the query must not disturb the scan): sought or scanned, then filtered."""
        g = ctx.graph
        labels = self.anchor_labels
        if self.seek_ends:
            t, key, fn = self.anchor_seek
            ends = self.seek_ends
            found: dict = {}
            for r in g.rel_index_lookup(t, key, fn(row, ctx)):
                if ends != "end":
                    found[r.start] = None
                if ends != "start":
                    found[r.end] = None
            nodes = list(found)
            if self.scan_filter is not None:
                nodes = self.scan_filter.select(nodes, row, ctx)
            labels = self.seek_other_labels
        elif self.anchor_seek is not None:
            lb, key, fn = self.anchor_seek
            nodes = g.index_lookup(lb, key, fn(row, ctx))
            if self.scan_filter is not None:
                nodes = self.scan_filter.select(nodes, row, ctx)
            labels = self.seek_other_labels
        elif self.node_seek is not None:
            nodes = self.node_seek.nodes(g, row, ctx)
            if self.scan_filter is not None:
                nodes = self.scan_filter.select(nodes, row, ctx)
            labels = self.seek_other_labels
        elif labels:
            smallest = min(labels, key=g.label_count)
            if len(labels) == 1:
                labels = ()  # every node of the scan carries it
            if self.scan_filter is not None:
                nodes = self.scan_filter.select_label(g, smallest, row, ctx)
            else:
                nodes = g.nodes_with_label(smallest)
        else:
            if self.anchor_union:
                found = {}
                for lb in self.anchor_union:
                    for n in g.nodes_with_label(lb):
                        found[n.id] = n
                nodes = [found[k] for k in sorted(found)]  # node id order, as every node's scan
            else:
                nodes = g.nodes.values()
            if self.scan_filter is not None:
                nodes = self.scan_filter.select(nodes, row, ctx)
        if labels:
            nodes = [n for n in nodes if all(lb in n.labels for lb in labels)]
        check = self.anchor_check
        if check is not None:
            nodes = [n for n in nodes if check(n, row + (n,), ctx)]
        return nodes if isinstance(nodes, list) else list(nodes)

    def run(self, row, ctx):
        stream = self.anchors(row, ctx)
        for st in self.steps:
            stream = self._step(stream, st, ctx)
        if self.path_slot >= 0:
            stream = (r + (self._path(r),) for r in stream)
        return stream

    def _path(self, row) -> Path:
        nodes = [row[self.node_slots_in_order[0]]]
        rels = []
        cur = nodes[0]
        for i, rs in enumerate(self.rel_slots_in_order):
            v = row[rs]
            hop = v if isinstance(v, list) else [v]
            for r in hop:
                rels.append(r)
                cur = r.end if r.start is cur else r.start
                nodes.append(cur)
        return Path(tuple(nodes), tuple(rels))

    def _neighbours(self, g, node: Node, st: Step) -> list:
        """`(relationship, other node)` pairs one hop from `node` along `st` (a new list, so the
        caller may write to the graph while walking it)."""
        d = st.direction
        return g.expand(node, st.types, d is not A.Direction.IN, d is not A.Direction.OUT)

    def _step(self, stream, st: Step, ctx):
        g = ctx.graph
        used = [s for s in self.all_rel_slots if s != st.rel_slot]
        labels = st.node.labels
        if st.group is not None:
            yield from st.group.run(stream, st, ctx, used)
            return
        if st.rel.length is not None:
            yield from self._var_step(stream, st, ctx, used)
            return
        timed = ctx.deadline is not None
        for row in stream:
            src = row[st.from_slot]
            if src is None:
                continue
            taken = {id(row[s]) for s in used if s < len(row) and isinstance(row[s], Relationship)}
            for s in used:
                if s < len(row) and isinstance(row[s], list):
                    taken.update(id(x) for x in row[s])
            for rel, other in self._neighbours(g, src, st):
                if timed:
                    ctx.check_deadline()
                if id(rel) in taken:
                    continue
                if st.rel_bound and row[st.rel_slot] is not rel:
                    continue
                if labels and not all(lb in other.labels for lb in labels):
                    continue
                if st.node_bound and row[st.node_slot] is not other:
                    continue
                r = row
                if not st.rel_bound:
                    r = r + (rel,)
                if st.rel_check is not None and not st.rel_check(rel, r, ctx):
                    continue
                if not st.node_bound:
                    r = r + (other,)
                if st.node_check is not None and not st.node_check(other, r, ctx):
                    continue
                yield r

    def _var_step(self, stream, st: Step, ctx, used):
        g = ctx.graph
        lo, hi = st.rel.length
        lo = 1 if lo is None else lo
        labels = st.node.labels
        for row in stream:
            src = row[st.from_slot]
            if src is None:
                continue
            taken = {id(row[s]) for s in used if s < len(row) and isinstance(row[s], Relationship)}
            for s in used:
                if s < len(row) and isinstance(row[s], list):
                    taken.update(id(x) for x in row[s])
            stack = [(src, ())]
            timed = ctx.deadline is not None
            while stack:
                if timed:
                    ctx.check_deadline()
                node, path = stack.pop()
                depth = len(path)
                if depth >= lo:
                    ok = (not labels or all(lb in node.labels for lb in labels))
                    if ok and st.node_bound and row[st.node_slot] is not node:
                        ok = False
                    if ok:
                        # the list reads left to right as written, whichever way it was walked
                        hops = list(reversed(path)) if st.reverse else list(path)
                        r = row if st.rel_bound else row + (hops,)
                        if st.rel_bound and row[st.rel_slot] != hops:
                            ok = False
                        if ok and st.rel_check is not None:
                            ok = all(st.rel_check(x, r, ctx) for x in path)
                        if ok:
                            if not st.node_bound:
                                r = r + (node,)
                            if st.node_check is None or st.node_check(node, r, ctx):
                                yield r
                if hi is not None and depth >= hi:
                    continue
                nxt = []
                for rel, other in self._neighbours(g, node, st):
                    if id(rel) in taken or rel in path:
                        continue
                    nxt.append((other, path + (rel,)))
                stack.extend(reversed(nxt))

