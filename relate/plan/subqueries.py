"""The planner's hooks for expressions that match patterns: pattern predicates and
comprehensions, `EXISTS { }` and `COUNT { }` -> closures the compiler calls per row, each over a
matcher or a sub-plan built once."""
from __future__ import annotations

from ..errors import E
from ..exec import operators as O
from ..exec.compile import Scope
from ..syntax import ast as A


class SubqueryPlanner:
    """Mixin of `Planner`: needs `compiler`, `_part_matcher`, `_clause` and `_standalone`."""

    def _pattern_expr(self, e, scope: Scope):
        self.reads = True
        part = A.PatternPart(e.path_variable if isinstance(e, A.PatternComprehension) else None, e.element)
        for n in e.element.nodes:
            if n.variable and not scope.has(n.variable) and isinstance(e, A.PatternPredicate):
                raise E.Internal.Internal(f"planner: pattern predicate reads unbound `{n.variable}`")
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
            budget, total = ctx.memory, 0  # under a memory limit, the list is measured as it grows
            for r in m.run(row, ctx):
                if pred is None or pred(r, ctx) is True:
                    v = proj(r, ctx)
                    if budget is not None:
                        total = budget.count(total, v)
                    out.append(v)
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
