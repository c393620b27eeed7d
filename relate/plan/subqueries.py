"""The planner's hooks for expressions that match patterns: pattern predicates and
comprehensions, `EXISTS { }`, `COUNT { }` and `COLLECT { }` -> closures the compiler calls per row,
each over a matcher or a sub-plan built once; and `CALL { }` subquery clauses -> a `CallSubquery`
(or, IN TRANSACTIONS, a `TransactionsCall`) over the sub-plan of each UNION part.

A part's sub-plan starts from an `Argument` the operator hands the part's imports per outer row
(`semantic/subqueries.part_imports`: the same parts and imports the checking stage read)."""
from __future__ import annotations

from ..errors import E
from ..exec import operators as O
from ..exec.compile import Scope
from ..exec.in_transactions import TransactionsCall
from ..exec.subquery_call import CallSubquery
from ..semantic.projection import visible
from ..semantic.subqueries import part_imports
from ..syntax import ast as A
from ..values import to_text
from ..values.depth import check_member, check_members
from .projection import Shown


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
                    if type(v) is list or type(v) is dict:
                        check_member(v, ctx.depths)
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
        """`EXISTS { query }` / `COUNT { query }` / `COLLECT { query }`: the query planned once on
        top of an argument operator that hands it the outer row; per outer row it runs until its
        answer is known.  UNION parts run one after the other (UNION drops repeated rows)."""
        parts = e.query.parts if isinstance(e.query, A.Query) else (e.query,)
        args, roots = [], []
        saved = self._standalone
        for part in parts:
            arg = O.Argument()
            op, inner = arg, Scope(scope.slots)
            clauses = part.clauses
            for i, c in enumerate(clauses):
                op, inner, _ = self._clause(c, op, inner, i == len(clauses) - 1)
            args.append(arg)
            roots.append(op)
        self._standalone = saved
        op = roots[0] if len(roots) == 1 else O.Union(roots, not all(e.query.union_all))
        if len(args) == 1:
            arg, = args

            def bind(row):
                arg.row = row
        else:
            def bind(row):
                for a in args:
                    a.row = row
        if isinstance(e, A.ExistsSubquery):
            def exists(row, ctx):
                bind(row)
                for _ in op.rows(ctx):
                    return True
                return False
            return exists
        if isinstance(e, A.CollectSubquery):
            def collect(row, ctx):
                bind(row)
                out = [r[0] for r in op.rows(ctx)]
                for m in out:
                    if type(m) is list or type(m) is dict:
                        check_members(out, out, ctx.depths)
                        break
                return out
            return collect

        def count(row, ctx):
            bind(row)
            return sum(1 for _ in op.rows(ctx))
        return count

    # ------------------------------------------------------------ CALL { } clauses
    def _subquery_call(self, c: A.SubqueryCall, op, scope: Scope):
        """-> (the operator, the scope after the call)."""
        args, roots = [], []
        columns = None
        saved, wrote = self._standalone, self.writes
        self._standalone = False
        self.writes = False
        for part, names in part_imports(c, visible(scope.slots)):
            arg = O.Argument()
            sub, inner = arg, Scope({n: i for i, n in enumerate(names)})
            returned = None
            clauses = part.clauses
            for i, cl in enumerate(clauses):
                sub, inner, returned = self._clause(cl, sub, inner, i == len(clauses) - 1)
            if isinstance(sub, O.ProduceResults):  # the part's RETURN gives the call its columns
                sub = Shown(sub.child, "Projection", sub.details)
            args.append((arg, [scope.slot(n) for n in names]))
            roots.append(sub)
            columns = returned
        self._standalone = saved
        inner_writes, self.writes = self.writes, self.writes or wrote
        inner_root = roots[0] if len(roots) == 1 else O.Union(roots, not all(c.query.union_all))
        width = None if columns is None else len(columns)
        tx = c.transactions
        if tx is None:
            call = CallSubquery(op, args, inner_root, width, c.optional)
            if inner_writes:  # the clauses after it see what every run of it wrote
                call = O.Eager(call)
        else:
            self.writes = True  # its batches commit: never on a read-only connection
            self.in_transactions = True
            batch = None if tx.batch is None else self.compiler.compile(tx.batch, Scope())
            mode = (tx.retry_then or "CONTINUE") if tx.on_error == "RETRY" else tx.on_error
            call = TransactionsCall(op, args, inner_root, width, batch, mode, tx.report is not None)
            call.details = _tx_text(tx)
        out = scope
        for n in columns or ():
            out, _ = out.extended(n)
        if tx is not None and tx.report is not None:
            out, _ = out.extended(tx.report)
        (call.child if isinstance(call, O.Eager) else call).identifiers = tuple(columns or ())
        return call, out


def _tx_text(tx: A.InTransactions) -> str:
    """EXPLAIN's details of an IN TRANSACTIONS call: its batch size, error mode and status."""
    b = tx.batch
    size = ("1000" if b is None else to_text(b.value) if isinstance(b, A.Literal)
            else "$" + b.name if isinstance(b, A.Parameter) else "(expression)")
    out = f"OF {size} ROWS, ON ERROR {tx.on_error}"
    return out + (f", REPORT STATUS AS {tx.report}" if tx.report is not None else "")
