"""A statement that passed `scoping.py` -> the first error met in the order the planner builds it
(the second pass of `analyze.py`).

The walk follows the planner clause by clause and threads the same scope (`names.py`): UNION
parts, then each part's clauses; MATCH parts from their anchors (`pattern_walk.py`), then WHERE;
a projection's items, its aggregates' arguments, the expressions over the aggregated values, then
ORDER BY, SKIP, LIMIT and WHERE; CREATE's nodes before its relationships; MERGE's pattern as the
matcher walks it, then as CREATE makes it, then ON MATCH and ON CREATE; CALL against the
registry.  Expressions are walked as they are compiled (`expr_order.py`).  The rules themselves
are in `checks/`.  After this pass the planner and the compiler only build.
"""
from __future__ import annotations

from ..syntax import ast as A
from ..syntax.position import position
from . import types as T
from .astwalk import aggregates_in, is_aggregate, key, replace
from .checks import clause_order, create_patterns, load_csv, procedures, union
from .checks import functions as F
from .checks import variables as V
from .expr_order import ExprOrder
from .names import Names
from .astwalk import conjuncts
from .pattern_walk import PatternWalk
from .subqueries import part_imports
from .projection import (aggregate_rewrite, grouping_key_swap, is_simple_key, item_names, projected_rewrite,
                         visible)



class BuildOrder:
    def __init__(self, text: str, arity, procedures=None, anchor=None) -> None:
        self.text = text
        self.procedures = procedures
        self.exprs = ExprOrder(text, arity, self._pattern_expr, self._subquery_expr)
        self.patterns = PatternWalk(self.expr, anchor)
        self._standalone = False

    def expr(self, e: A.Expr, scope: Names) -> None:
        self.exprs.check(e, scope)

    # ------------------------------------------------------------ statements
    def statement(self, stmt: A.Statement) -> None:
        body = stmt.body
        if not isinstance(body, A.Query):
            return
        columns = None
        for sq in body.parts:
            cols = self.single(sq)
            union.same_columns(columns, cols)
            columns = cols
        if len(body.parts) > 1:
            union.one_kind(body.union_all)

    def single(self, sq: A.SingleQuery, scope: Names | None = None, standalone: bool | None = None
               ) -> tuple[str, ...]:
        """`scope`: what the part starts with (a subquery's imports); `standalone`: whether a
        lone procedure call is the whole statement (by default: when it is the only clause)."""
        scope = Names() if scope is None else scope
        clauses = sq.clauses
        saved = self._standalone
        self._standalone = len(clauses) == 1 if standalone is None else standalone
        returned = None
        for i, c in enumerate(clauses):
            clause_order.return_last(c, i == len(clauses) - 1)
            scope, returned = self.clause(c, scope)
        clause_order.conclusion(clauses[-1])
        self._standalone = saved if standalone is not None else self._standalone
        return () if returned is None else returned

    def _query_parts(self, q, starts) -> tuple[str, ...]:
        """The UNION parts of a subquery, each from its own start scope -> its columns."""
        columns = None
        for sq, start in zip(q.parts, starts):
            cols = self.single(sq, start, standalone=False)
            union.same_columns(columns, cols)
            columns = cols
        if len(q.parts) > 1:
            union.one_kind(q.union_all)
        return columns or ()

    # ------------------------------------------------------------ clauses
    def clause(self, c, scope: Names):
        """-> (the names after `c`, the columns it returns or None)."""
        method = getattr(self, "_" + type(c).__name__, None)
        if method is None:
            clause_order.unsupported(c)
        return method(c, scope)

    def _Match(self, c: A.Match, scope):
        where = conjuncts(c.where) if c.where is not None else []
        for part in c.pattern.parts:
            scope = self.patterns.shortest(part, scope) if part.shortest else self.patterns.part(part, scope, where)
            for name, stype in T.pattern_types(part):
                scope.set_type(name, stype)
        if c.where is not None:
            self.expr(c.where, scope)
        return scope, None

    def _Unwind(self, c: A.Unwind, scope):
        self.expr(c.expr, scope)
        V.fresh(c.variable, scope.has(c.variable))
        return scope.extended(c.variable, scope.typer.of(c.expr).element()), None

    def _LoadCsv(self, c: A.LoadCsv, scope):
        self.expr(c.source, scope)
        load_csv.source(c.source, scope.typer.of(c.source), self.text)
        load_csv.terminator(c.terminator, self.text)
        V.fresh(c.variable, scope.has(c.variable))
        return scope.extended(c.variable, load_csv.row_type(c.headers)), None

    def _With(self, c: A.With, scope):
        scope, _ = self.projection(c.projection, scope, c.where)
        return scope, None

    def _Return(self, c: A.Return, scope):
        return self.projection(c.projection, scope, None)

    def _Create(self, c: A.Create, scope):
        for part in c.pattern.parts:
            el = part.element
            local: set[str] = set()
            after = scope.copy()
            for n in el.nodes:
                if n.variable and (scope.has(n.variable) or n.variable in local):
                    create_patterns.bound_node(n)
                    continue
                if n.properties is not None:
                    self.expr(n.properties, _tail(scope, local))
                if n.variable:
                    after = after.extended(n.variable)
                    local.add(n.variable)
            for r in el.rels:
                create_patterns.create_rel(r)
                if r.variable and (scope.has(r.variable) or r.variable in local):
                    create_patterns.bound_rel(r)
                if r.properties is not None:
                    self.expr(r.properties, _tail(scope, local))
            for r in el.rels:
                if r.variable:
                    after = after.extended(r.variable)
                    local.add(r.variable)
            if part.variable:
                after = after.extended(part.variable)
            scope = after
            for name, stype in T.pattern_types(part):
                scope.set_type(name, stype)
        return scope, None

    def _Merge(self, c: A.Merge, scope):
        part = c.part
        el = part.element
        for r in el.rels:
            create_patterns.merge_rel(r)
        after = self.patterns.part(part, scope)
        for n in el.nodes:
            if n.variable and scope.has(n.variable):
                if len(el.nodes) == 1:
                    create_patterns.bound_node(n)
            elif n.properties is not None:
                self.expr(n.properties, scope)
        for r in el.rels:
            if r.properties is not None:
                self.expr(r.properties, scope)
        for name, stype in T.pattern_types(part):
            after.set_type(name, stype)
        for it in c.on_match + c.on_create:
            self._set_item(it, after)
        return after, None

    def _SetClause(self, c: A.SetClause, scope):
        for it in c.items:
            self._set_item(it, scope)
        return scope, None

    def _set_item(self, it: A.SetItem, scope) -> None:
        if it.kind is A.SetKind.PROPERTY:
            self.expr(it.target.subject, scope)
            if isinstance(it.target, A.Subscript):  # `SET n[key] = v`
                self.expr(it.target.index, scope)
            self.expr(it.value, scope)
        elif it.kind is A.SetKind.LABELS:
            self.expr(it.target, scope)
            for d in it.dynamic:
                self.expr(d.expr, scope)
        else:
            self.expr(it.target, scope)
            self.expr(it.value, scope)

    def _Remove(self, c: A.Remove, scope):
        for it in c.items:
            self.expr(it.target if it.labels or it.dynamic else it.target.subject, scope)
            if isinstance(it.target, A.Subscript):  # `REMOVE n[key]`
                self.expr(it.target.index, scope)
            for d in it.dynamic:
                self.expr(d.expr, scope)
        return scope, None

    def _Delete(self, c: A.Delete, scope):
        for e in c.exprs:
            self.expr(e, scope)
        return scope, None

    def _Foreach(self, c: A.Foreach, scope):
        self.expr(c.source, scope)
        inner = scope.extended(c.variable, scope.typer.of(c.source).element())
        for sub in c.body:
            inner, _ = self.clause(sub, inner)
        return scope, None

    def _SubqueryCall(self, c: A.SubqueryCall, scope):
        parts = part_imports(c, visible(scope.types))
        q = A.Query(tuple(p for p, _ in parts), c.query.union_all)
        starts = [Names({n: scope.types.get(n) for n in names}) for _, names in parts]
        columns = self._query_parts(q, starts)
        tx = c.transactions
        if tx is not None:
            for e in (tx.batch, tx.retry_for, tx.concurrency):
                if e is not None:
                    self.expr(e, Names())
        after = scope.copy()
        for n in columns:
            after = after.extended(n)
        if tx is not None and tx.report is not None:
            after = after.extended(tx.report, T.MAP)
        return after, None

    def _Finish(self, c: A.Finish, scope):
        return scope, None

    def _Call(self, c: A.Call, scope):
        standalone = self._standalone
        pos = position(self.text, c.pos) if self.text else None
        proc = self.procedures.get(c.procedure) if self.procedures is not None else None
        procedures.known(proc, c, pos)
        sig = proc.signature
        if c.args is None:
            procedures.implicit_arguments(standalone, pos)
            args = tuple(A.Parameter(f.name, c.pos) for f in sig.inputs)
        else:
            args = c.args
            procedures.argument_count(args, sig, pos)
        procedures.argument_types(sig, args, scope.typer, pos)
        for a in args:
            self.expr(a, scope)
        procedures.yield_star(c, standalone, pos)
        names = [f.name for f in sig.outputs]
        if c.yields:
            picks, aliases = [], []
            for y in c.yields:
                procedures.output(y.name, names, pos)
                picks.append(names.index(y.name))
                aliases.append(y.alias or y.name)
        elif standalone:
            picks, aliases = list(range(len(names))), list(names)
        else:
            picks, aliases = [], []
        for k, alias in zip(picks, aliases):
            scope = scope.extended(alias, procedures.OUT_TYPES.get(sig.outputs[k].type, T.ANY))
        if c.where is not None:
            self.expr(c.where, scope)
        return scope, (tuple(aliases) if standalone else None)

    # ------------------------------------------------------------ WITH / RETURN
    def projection(self, p: A.Projection, scope: Names, where):
        items = item_names(p, visible(scope.types))
        names = tuple(n for n, _ in items)
        aggregating = any(aggregates_in(e) for _, e in items)
        types = {n: (T.ANY if aggregates_in(e) else scope.typer.of(e)) for n, e in items}
        if aggregating:
            self._aggregate(items, scope)
            late = Names(types)
        else:
            for _, e in items:
                self.expr(e, scope)
            if p.distinct:
                late = Names(types)
            else:
                late = scope.copy()  # ORDER BY and WHERE see the columns and what came before
                for n in names:
                    late.set_type(n, types[n])
        for s in p.order:
            e = s.expr
            e = aggregate_rewrite(e, items) if aggregating and aggregates_in(e) else projected_rewrite(e, items)
            self.expr(e, late)
        for e in (p.skip, p.limit):
            if e is not None:
                self.expr(e, Names())
        if where is not None:
            self.expr(projected_rewrite(where, items), late)
        return Names(types), names

    def _aggregate(self, items, scope: Names) -> None:
        """Grouping keys and aggregate arguments over the rows; then each aggregating item over
        the keys and aggregate values only (names of no known type)."""
        key_of: dict = {}
        keys = 0
        aggs = 0
        post = []

        def swap(n):
            nonlocal aggs
            if not is_aggregate(n):
                return None
            F.aggregate_known(n)
            if not isinstance(n, A.CountStar):
                for a in n.args[:2]:
                    self.expr(a, scope)
            aggs += 1
            return A.Variable(f" agg{aggs - 1}")
        for _, expr in items:
            if not aggregates_in(expr):
                self.expr(expr, scope)
                if is_simple_key(expr):
                    key_of.setdefault(key(expr), keys)
                keys += 1
            else:
                post.append(replace(expr, swap))
        inner = Names({**{f" key{k}": None for k in range(keys)}, **{f" agg{k}": None for k in range(aggs)}})

        to_key = grouping_key_swap(key_of)
        for e in post:
            self.expr(replace(e, to_key), inner)

    # ------------------------------------------------------------ pattern expressions, subqueries
    def _pattern_expr(self, e, scope: Names) -> None:
        predicate = isinstance(e, A.PatternPredicate)
        if predicate:
            for n in e.element.nodes:
                if n.variable:
                    V.defined(n.variable, scope.has(n.variable), None, self.text)
        part = A.PatternPart(None if predicate else e.path_variable, e.element)
        inner = self.patterns.part(part, scope)
        if predicate:
            return
        if e.predicate is not None:
            self.expr(e.predicate, inner)
        self.expr(e.projection, inner)

    def _subquery_expr(self, e, scope: Names) -> None:
        if isinstance(e.query, A.Query):  # UNION inside
            self._query_parts(e.query, [scope.copy() for _ in e.query.parts])
            return
        if e.query is not None:
            inner = scope.copy()
            for c in e.query.clauses:
                inner, _ = self.clause(c, inner)
            return
        inner = scope
        for part in e.pattern.parts:
            inner = self.patterns.part(part, inner)
        if e.where is not None:
            self.expr(e.where, inner)


def _tail(scope: Names, local: set[str]) -> Names:
    """What a CREATE pattern's property map sees: the names before it and the part's nodes so far."""
    out = scope.copy()
    for n in local:
        if not out.has(n):
            out.types[n] = None
    return out
