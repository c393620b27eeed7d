"""`ast.Statement` -> `Plan`: a tree of physical operators with fixed slots, plus what the
statement is (query type, columns, parameters it needs, notifications).

Only statements that passed the checking stage (`semantic/analyze.py`) reach the planner: it
only builds, and a guard of its own that fires is an `InternalError`.  Clauses are planned in
order; each one takes the operator and `Scope` built so far and returns new ones.  Expressions are compiled to
closures here, once per plan.  Projections live in `projection.py`, procedure calls in
`calls.py`; pattern matching operators come from `exec/match.py`, writes from `exec/writes.py`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InternalError
from ..result import Notification
from ..syntax import ast as A
from ..exec import operators as O
from ..exec import writes as W
from ..exec.compile import Compiler, Scope
from ..semantic.types import pattern_types
from ..exec.match import PartMatcher, hidden_name
from ..exec.shortest import ShortestMatcher
from . import rules
from .conjuncts import conjuncts, join_and
from .explain import access_text
from .match_spec import MatchSpec
from .notifications import missing_index
from .projection import ProjectionPlanner
from .calls import CallPlanner


@dataclass(slots=True)
class Plan:
    root: O.Operator
    columns: tuple[str, ...]
    query_type: str
    parameters: tuple[str, ...]
    notifications: list[Notification] = field(default_factory=list)
    schema: A.Node | None = None  # CreateIndex / DropIndex body


def _params_in(node) -> list[str]:
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Parameter):
            if n.name not in out:
                out.append(n.name)
        elif isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
        elif isinstance(n, A.Node):
            for s in reversed(n.__slots__):
                stack.append(getattr(n, s))
    return out


class Planner(ProjectionPlanner, CallPlanner):
    def __init__(self, graph, procedures=None, disabled_rules=None) -> None:
        """`disabled_rules`: names of access-path rules (`rules.RULES`) to leave out; None reads
        them from the environment (`rules.ENVIRONMENT_VARIABLE`)."""
        self.graph = graph
        self.procedures = procedures
        self.disabled_rules = (rules.disabled_by_environment() if disabled_rules is None
                               else rules.checked(disabled_rules))
        self.implicit_parameters: list[str] = []  # read by CALL without parentheses
        self.compiler = Compiler(pattern_hook=self._pattern_expr, subquery_hook=self._subquery_expr)
        self.notifications: list[Notification] = []
        self.reads = False
        self.writes = False

    # ------------------------------------------------------------------ entry
    def plan(self, stmt: A.Statement) -> Plan:
        body = stmt.body
        params = tuple(_params_in(body))
        if isinstance(body, (A.CreateIndex, A.DropIndex)):
            op = O.Operator()
            op.name = "CreateIndex" if isinstance(body, A.CreateIndex) else "DropIndex"
            op.details = (f"(:{body.label} {{{', '.join(body.properties)}}})"
                          if isinstance(body, A.CreateIndex) else body.name)
            return Plan(op, (), "s", params, [], body)
        parts = []
        columns = None
        for sq in body.parts:
            root, cols = self._single(sq)
            if columns is not None and list(cols) != list(columns):
                raise InternalError("Internal", "planner: UNION parts with different columns")
            columns = cols
            parts.append(root)
        if len(parts) == 1:
            root = parts[0]
        else:
            distinct = not all(body.union_all)
            if any(body.union_all) and not all(body.union_all):
                raise InternalError("Internal", "planner: UNION mixed with UNION ALL")
            root = O.Union(parts, distinct)
            root = O.ProduceResults(root)
            root.details = f"{len(columns)} item(s)"
        qtype = "rw" if self.reads and self.writes else ("w" if self.writes else "r")
        params = params + tuple(p for p in dict.fromkeys(self.implicit_parameters) if p not in params)
        return Plan(root, tuple(columns or ()), qtype, params, self.notifications)

    # ------------------------------------------------------------------ clauses
    def _single(self, sq: A.SingleQuery):
        op: O.Operator = O.Argument()
        scope = Scope()
        clauses = sq.clauses
        self._standalone = len(clauses) == 1
        returned = None
        for i, c in enumerate(clauses):
            last = i == len(clauses) - 1
            op, scope, returned = self._clause(c, op, scope, last)
        if returned is None:
            return op, ()
        return op, returned

    def _clause(self, c, op, scope, last):
        if isinstance(c, A.Match):
            return (*self._match(c, op, scope), None)
        if isinstance(c, A.Unwind):
            fn = self.compiler.compile(c.expr, scope)
            if scope.has(c.variable):
                raise InternalError("Internal", f"planner: UNWIND rebinds `{c.variable}`")
            scope, _ = scope.extended(c.variable)
            return O.Unwind(op, fn, c.variable), scope, None
        if isinstance(c, A.With):
            op, scope, cols = self._projection(c.projection, op, scope, is_return=False, where=c.where)
            return op, scope, None
        if isinstance(c, A.Return):
            op, scope, cols = self._projection(c.projection, op, scope, is_return=True)
            return op, scope, cols
        if isinstance(c, A.Create):
            return (*self._create(c, op, scope), None)
        if isinstance(c, A.Merge):
            return (*self._merge(c, op, scope), None)
        if isinstance(c, A.SetClause):
            self.writes = True
            return O.Eager(W.SetOp(op, [self._set_item(it, scope) for it in c.items])), scope, None
        if isinstance(c, A.Remove):
            self.writes = True
            items = []
            for it in c.items:
                if it.labels:
                    items.append((self.compiler.compile(it.target, scope), None, it.labels))
                else:
                    items.append((self.compiler.compile(it.target.subject, scope), it.target.key, ()))
            return W.RemoveOp(op, items), scope, None
        if isinstance(c, A.Delete):
            self.writes = True
            fns = [self.compiler.compile(e, scope) for e in c.exprs]
            return W.DeleteOp(op, fns, c.detach), scope, None
        if isinstance(c, A.Foreach):
            self.writes = True
            source = self.compiler.compile(c.source, scope)
            arg = O.Argument()
            body, inner = arg, scope.extended(c.variable)[0]
            for sub in c.body:
                body, inner, _ = self._clause(sub, body, inner, False)
            return W.ForeachOp(op, source, arg, body), scope, None
        if isinstance(c, A.Call):
            standalone = self._standalone
            op, scope, cols = self._call(c, op, scope, standalone)
            if standalone:
                op = O.ProduceResults(O.Narrow(op, [scope.slot(n) for n in cols]))
                op.details = f"{len(cols)} item(s)"
            return op, scope, cols
        raise InternalError("Internal", f"planner: no rule for {type(c).__name__}")

    # ------------------------------------------------------------------ MATCH
    def _match(self, c: A.Match, op, scope: Scope):
        self.reads = True
        before = len(scope)
        parts = []
        rel_slots: list[int] = []
        all_where = tuple(conjuncts(c.where)) if c.where is not None else ()
        where = all_where
        for part in c.pattern.parts:
            if part.shortest:
                m = ShortestMatcher(part, scope, self.compiler, self._end_specs(part, scope), rel_slots)
            else:
                m = self._part_matcher(part, scope, where, rel_slots)
                where = m.spec.where  # the conjuncts no scan or seek took
            rel_slots = m.all_rel_slots
            parts.append(m)
            scope = m.scope
            for name, stype in pattern_types(part):
                scope.set_type(name, stype)
        pred = self.compiler.compile(c.where, scope) if c.where is not None else None
        if pred is not None and len(where) < len(all_where):
            # the whole WHERE was compiled above for its checks; what runs is the rest of it
            rest = join_and(list(where))
            pred = self.compiler.compile(rest, scope) if rest is not None else None
        node = O.Match(op, parts, pred, c.optional, len(scope) - before)
        self._describe_match(node, parts, c)
        return node, scope

    # ------------------------------------------------------------------ access paths
    def _optimize(self, spec):
        return rules.optimize(spec, self.graph, self.disabled_rules)

    def _part_matcher(self, part: A.PatternPart, scope: Scope, where=(), rel_slots=()) -> PartMatcher:
        """The matcher of one pattern part, its access path chosen by the rules."""
        spec = self._optimize(MatchSpec.generic(part, scope.slots, where))
        return PartMatcher(spec, scope, self.compiler, list(rel_slots))

    def _end_specs(self, part: A.PatternPart, scope: Scope) -> tuple[MatchSpec, MatchSpec]:
        """A shortest path's two ends as one-node parts; the right end sees the left one bound."""
        nodes = part.element.nodes  # ShortestMatcher refuses parts of more than two
        left, right = (A.PatternPart(None, A.PatternElement((n,), ()), None, part.pos)
                       for n in (nodes[0], nodes[-1]))
        first = self._optimize(MatchSpec.generic(left, scope.slots))
        return first, self._optimize(MatchSpec.generic(right, set(scope.slots) | {first.anchor_name}))

    def _describe_match(self, node: O.Match, parts: list, c: A.Match) -> None:
        texts = []
        warnings = []
        has_rels = False
        for m in parts:
            el = m.part.element
            spec = m.spec
            texts.append(_walk_text(el, 0) if spec is None else _walk_text(el, spec.anchor) + access_text(spec))
            has_rels = has_rels or bool(el.rels)
            for n in el.nodes:
                if isinstance(n.properties, A.MapLiteral) and n.labels:
                    for key, _ in n.properties.entries:
                        if all(self.graph.index_for(lb, key) is None for lb in n.labels):
                            warnings.append(missing_index(n.labels[0], key))
        if any(m.part.shortest for m in parts):
            node.name = "ShortestPath" if not c.optional else "OptionalShortestPath"
        elif has_rels:
            node.name = "Expand" if not c.optional else "OptionalExpand"
        else:
            spec = parts[0].spec
            if spec.seek is not None:
                node.name = "NodeIndexSeek"
            elif spec.anchor_node.labels:
                node.name = "NodeByLabelScan"
            else:
                node.name = "AllNodesScan"
            if c.optional:
                node.name = "Optional" + node.name
        node.details = ", ".join(texts)
        node.warnings = tuple(warnings)

    # ------------------------------------------------------------------ writes
    def _node_spec(self, n: A.NodePattern, scope: Scope, for_create: bool, local: dict):
        name = n.variable
        if name and (scope.has(name) or name in local):
            if n.labels or n.properties is not None:
                raise InternalError("Internal", f"planner: CREATE redeclares `{name}`")
            slot = scope.slot(name) if scope.has(name) else local[name]
            return W.NodeSpec(slot, (), None), False
        props = self.compiler.compile(n.properties, _TailScope(scope, local)) if n.properties is not None else None
        return W.NodeSpec(None, n.labels, props), True

    def _create(self, c: A.Create, op, scope: Scope):
        self.writes = True
        parts = []
        texts = []
        for part in c.pattern.parts:
            el = part.element
            local: dict[str, int] = {}
            nodes = []
            order = []
            new_scope = Scope(scope.slots)
            for i, n in enumerate(el.nodes):
                spec, new = self._node_spec(n, scope, True, local)
                if spec.bound_slot is None:
                    nm = n.variable or hidden_name("n", n.pos, i)
                    new_scope, slot = new_scope.extended(nm)
                    local[nm] = slot
                    order.append("n")
                nodes.append(spec)
            rels = []
            for i, r in enumerate(el.rels):
                if (len(r.types) != 1 or r.direction is A.Direction.BOTH or r.length is not None
                        or (r.variable and (scope.has(r.variable) or r.variable in local))):
                    raise InternalError("Internal", "planner: a relationship CREATE cannot make")
                a, b = (i, i + 1) if r.direction is A.Direction.OUT else (i + 1, i)
                props = (self.compiler.compile(r.properties, _TailScope(scope, local))
                         if r.properties is not None else None)
                rels.append(W.RelSpec(r.types[0], props, a, b))
            # rows are extended node values first, then relationship values
            for i, r in enumerate(el.rels):
                nm = r.variable or hidden_name("r", r.pos, i)
                new_scope, slot = new_scope.extended(nm)
                local[nm] = slot
                order.append("r")
            if part.variable:
                new_scope, _ = new_scope.extended(part.variable)
            parts.append((nodes, rels, order, bool(part.variable)))
            scope = new_scope
            for name, stype in pattern_types(part):
                scope.set_type(name, stype)
            texts.append(_create_text(el))
        return W.Create(op, parts, ", ".join(texts)), scope

    def _merge(self, c: A.Merge, op, scope: Scope):
        self.writes = True
        self.reads = True
        part = c.part
        el = part.element
        for r in el.rels:
            if len(r.types) != 1 or r.length is not None:
                raise InternalError("Internal", "planner: a relationship MERGE cannot make")
        m = self._part_matcher(part, scope)
        nodes = []
        for i, n in enumerate(el.nodes):
            if n.variable and scope.has(n.variable):
                if (n.labels or n.properties is not None) and len(el.nodes) == 1:
                    raise InternalError("Internal", f"planner: MERGE redeclares `{n.variable}`")
                nodes.append(W.NodeSpec(scope.slot(n.variable), (), None))
            else:
                props = self.compiler.compile(n.properties, scope) if n.properties is not None else None
                nodes.append(W.NodeSpec(None, n.labels, props))
        rels = []
        for i, r in enumerate(el.rels):
            a, b = (i, i + 1) if r.direction is not A.Direction.IN else (i + 1, i)
            props = self.compiler.compile(r.properties, scope) if r.properties is not None else None
            rels.append(W.RelSpec(r.types[0], props, a, b))
        new_scope = m.scope
        for name, stype in pattern_types(part):
            new_scope.set_type(name, stype)
        on_match = [self._set_item(it, new_scope) for it in c.on_match]
        on_create = [self._set_item(it, new_scope) for it in c.on_create]
        op = W.MergeOp(op, m, nodes, rels, None, bool(part.variable), on_match, on_create,
                       _walk_text(el, m.anchor))
        return op, new_scope

    def _set_item(self, it: A.SetItem, scope: Scope) -> W.SetItemOp:
        comp = self.compiler
        if it.kind is A.SetKind.PROPERTY:
            return W.SetItemOp(it.kind, comp.compile(it.target.subject, scope), it.target.key,
                               comp.compile(it.value, scope), ())
        if it.kind is A.SetKind.LABELS:
            return W.SetItemOp(it.kind, comp.compile(it.target, scope), None, None, it.labels)
        return W.SetItemOp(it.kind, comp.compile(it.target, scope), None, comp.compile(it.value, scope), ())

    # ------------------------------------------------------------------ hooks for expressions
    def _pattern_expr(self, e, scope: Scope):
        self.reads = True
        part = A.PatternPart(e.path_variable if isinstance(e, A.PatternComprehension) else None, e.element)
        for n in e.element.nodes:
            if n.variable and not scope.has(n.variable) and isinstance(e, A.PatternPredicate):
                raise InternalError("Internal", f"planner: pattern predicate reads unbound `{n.variable}`")
        m = self._part_matcher(part, scope)
        if isinstance(e, A.PatternPredicate):
            def exists(row, ctx):
                for _ in m.run(row, ctx):
                    return True
                return False
            return exists
        pred = self.compiler.compile(e.predicate, m.scope) if e.predicate is not None else None
        proj = self.compiler.compile(e.projection, m.scope)

        def collect(row, ctx):
            out = []
            for r in m.run(row, ctx):
                if pred is None or pred(r, ctx) is True:
                    out.append(proj(r, ctx))
            return out
        return collect

    def _subquery_expr(self, e, scope: Scope):
        self.reads = True
        if e.query is not None:
            return self._full_subquery(e, scope)
        parts = []
        s = scope
        rels: list[int] = []
        for part in e.pattern.parts:
            m = self._part_matcher(part, s, (), rels)
            rels = m.all_rel_slots
            parts.append(m)
            s = m.scope
        pred = self.compiler.compile(e.where, s) if e.where is not None else None
        matcher = O.Match(None, parts, pred, False, 0)
        if isinstance(e, A.ExistsSubquery):
            def exists(row, ctx):
                for _ in matcher.extend(row, ctx):
                    return True
                return False
            return exists

        def count(row, ctx):
            return sum(1 for _ in matcher.extend(row, ctx))
        return count


    def _full_subquery(self, e, scope: Scope):
        """`EXISTS { query }` / `COUNT { query }`: the query planned once on top of an argument
        operator that hands it the outer row; per outer row it runs until its answer is known."""
        arg = O.Argument()
        op, inner = arg, Scope(scope.slots)
        saved = self._standalone
        clauses = e.query.clauses
        for i, c in enumerate(clauses):
            op, inner, _ = self._clause(c, op, inner, i == len(clauses) - 1)
        self._standalone = saved
        if isinstance(e, A.ExistsSubquery):
            def exists(row, ctx):
                arg.row = row
                for _ in op.rows(ctx):
                    return True
                return False
            return exists

        def count(row, ctx):
            arg.row = row
            return sum(1 for _ in op.rows(ctx))
        return count


class _TailScope(Scope):
    """A scope seeing the outer variables plus those a CREATE pattern made so far."""

    def __init__(self, outer: Scope, local: dict) -> None:
        super().__init__(outer.slots)
        self.slots.update(local)


def _node_text(n: A.NodePattern) -> str:
    return "(" + (n.variable or "") + "".join(":" + lb for lb in n.labels) + ")"


def _rel_text(r: A.RelPattern, direction: A.Direction) -> str:
    inner = (r.variable or "") + (":" + "|".join(r.types) if r.types else "")
    if r.length is not None:
        lo, hi = r.length
        bounds = f"{lo if lo is not None else ''}..{hi if hi is not None else ''}"
        inner += "*" + ("" if lo is None and hi is None else bounds)
    body = f"[{inner}]" if inner else ""
    if direction is A.Direction.OUT:
        return f"-{body}->"
    if direction is A.Direction.IN:
        return f"<-{body}-"
    return f"-{body}-"


_FLIP = {A.Direction.OUT: A.Direction.IN, A.Direction.IN: A.Direction.OUT, A.Direction.BOTH: A.Direction.BOTH}


def _walk_text(el: A.PatternElement, anchor: int) -> str:
    """The pattern as walked from its anchor: right of it as written, left of it reversed."""
    out = _node_text(el.nodes[anchor])
    for i in range(anchor, len(el.rels)):
        out += _rel_text(el.rels[i], el.rels[i].direction) + _node_text(el.nodes[i + 1])
    left = ""
    for i in range(anchor - 1, -1, -1):
        left += _rel_text(el.rels[i], _FLIP[el.rels[i].direction]) + _node_text(el.nodes[i])
    if not left or anchor == len(el.nodes) - 1:
        return out + left
    return out + ", " + _node_text(el.nodes[anchor]) + left


def _create_text(el: A.PatternElement) -> str:
    out = _node_text(el.nodes[0])
    for r, n in zip(el.rels, el.nodes[1:]):
        out += _rel_text(r, r.direction) + _node_text(n)
    return out
