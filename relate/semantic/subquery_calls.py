"""The scoping rules of `CALL { }` subqueries and of the subquery expressions (`EXISTS { }`,
`COUNT { }`, `COLLECT { }`), as Neo4j 5 states them; the scoping pass (`scoping.py`) calls in.

CALL subqueries:
- a scope clause names bound variables only (`UndefinedVariable`); without one, outer variables
  are visible only through an importing WITH (`subqueries.py`), which must be a plain list of
  outer variables, with no DISTINCT, ORDER BY, WHERE, SKIP or LIMIT (`InvalidImportingWith`);
- a scope clause's variables cannot be declared again inside (`VariableAlreadyBound`);
- a returning subquery names every column (`NoExpressionAlias`), none of which may be an outer
  variable (`VariableAlreadyBound`: "already declared in outer scope");
- IN TRANSACTIONS: REPORT STATUS only with ON ERROR CONTINUE or BREAK, a constant batch size that
  is a positive integer, a status variable that is not bound yet; where it may stand is
  `checks/in_transactions.py`.
Subquery expressions: no writes, no name that shadows an outer variable, and COLLECT ends with a
RETURN of exactly one column (`InvalidClauseComposition`).
"""
from __future__ import annotations

from ..syntax import ast as A
from . import types as T
from .projection import item_names, visible
from .checks.in_transactions import writes
from .subqueries import importing_with, part_imports

_UPDATING = (A.Create, A.Merge, A.SetClause, A.Remove, A.Delete, A.Foreach)


class SubqueryRules:
    def __init__(self, analyzer) -> None:
        self.an = analyzer

    # ------------------------------------------------------------ CALL { }
    def call(self, c: A.SubqueryCall, scope: dict) -> dict:
        an = self.an
        if c.scope is not None and not c.scope_all:
            for v in c.scope:
                if v.name not in scope:
                    an.fail("UndefinedVariable", f"Variable `{v.name}` not defined", v.pos)
        outer = visible(scope)
        returned: dict = {}
        for part, names in part_imports(c, outer):
            if c.scope is None:
                self._importing_with(part, outer)
            inner = {n: scope[n] for n in names}
            saved = an._standalone
            an._standalone = False
            for clause in part.clauses:
                if c.scope is not None:
                    self._no_redeclaration(clause, names)
                inner = an.clause(clause, inner)
            an._standalone = saved
            last = part.clauses[-1] if part.clauses else None
            if isinstance(last, A.Return):
                self._returned(last, scope, returned, inner)
        out = dict(scope)
        for name, t in returned.items():
            out[name] = t | T.NULL if c.optional else t
        tx = c.transactions
        if tx is not None:
            self._transactions(tx, out)
            if tx.report is not None:
                out[tx.report] = T.MAP
        return out

    def _importing_with(self, part: A.SingleQuery, outer) -> None:
        w = importing_with(part, set(outer))
        if w is None:
            return
        p = w.projection
        what = next((word for word, there in (("DISTINCT", p.distinct), ("ORDER BY", p.order),
                                               ("WHERE", w.where is not None), ("SKIP", p.skip is not None),
                                               ("LIMIT", p.limit is not None)) if there), None)
        if what is not None:
            self.an.fail("InvalidImportingWith", "Importing WITH should consist only of simple references "
                         f"to outside variables. {what} is not allowed.", w.pos)
        for it in p.items:
            plain = isinstance(it.expr, A.Variable) and (it.alias is None or it.alias == it.expr.name)
            if not plain or it.expr.name not in outer:
                self.an.fail("InvalidImportingWith", "Importing WITH should consist only of simple references "
                             "to outside variables. Aliasing or expressions are not supported.", it.pos)

    def _no_redeclaration(self, clause, names) -> None:
        """A scope clause's variable bound anew by a WITH inside the subquery."""
        if not isinstance(clause, A.With):
            return
        for it in clause.projection.items:
            if it.alias in names and not (isinstance(it.expr, A.Variable) and it.expr.name == it.alias):
                self.an.fail("VariableAlreadyBound", f"Variable `{it.alias}` already declared", it.pos)

    def _returned(self, ret: A.Return, outer: dict, returned: dict, inner: dict) -> None:
        for it in ret.projection.items:
            if it.alias is None and not isinstance(it.expr, A.Variable):
                self.an.fail("NoExpressionAlias", "Expression in CALL { RETURN ... } must be aliased (use AS)",
                             it.pos)
        for name, _ in item_names(ret.projection, [n for n in inner if not n.startswith(" ")]):
            if name in outer:
                pos = next((it.pos for it in ret.projection.items
                            if (it.alias if it.alias is not None else it.text) == name), ret.pos)
                self.an.fail("VariableAlreadyBound", f"Variable `{name}` already declared in outer scope", pos)
            returned[name] = inner.get(name, T.ANY)

    def _transactions(self, tx: A.InTransactions, out: dict) -> None:
        an = self.an
        mode = tx.retry_then or "CONTINUE" if tx.on_error == "RETRY" else tx.on_error
        if tx.report is not None and mode == "FAIL":
            an.fail("InvalidClauseComposition",
                    "REPORT STATUS can only be used when specifying ON ERROR CONTINUE or ON ERROR BREAK", tx.pos)
        if tx.report is not None and tx.report in out:
            an.fail("VariableAlreadyBound", f"Variable `{tx.report}` already declared", tx.pos)
        for what, e in (("OF ... ROWS", tx.batch), ("RETRY FOR", tx.retry_for),
                        ("CONCURRENT TRANSACTIONS", tx.concurrency)):
            if e is None:
                continue
            an.check_expr(e, {}, where=what)
            v = e.value if isinstance(e, A.Literal) else None
            if what == "OF ... ROWS" and isinstance(e, A.Literal) and (
                    isinstance(v, bool) or not isinstance(v, int) or v <= 0):
                an.fail("InvalidArgumentType", f"OF ... ROWS expects a positive integer, got {v!r}",
                        getattr(e, "pos", tx.pos))

    # ------------------------------------------------------------ EXISTS / COUNT / COLLECT
    def expression(self, e, scope: dict) -> None:
        an = self.an
        what = {A.ExistsSubquery: "EXISTS", A.CountSubquery: "COUNT", A.CollectSubquery: "COLLECT"}[type(e)]
        parts = e.query.parts if isinstance(e.query, A.Query) else (e.query,)
        for part in parts:
            for c in part.clauses:
                if isinstance(c, _UPDATING) or (isinstance(c, A.SubqueryCall) and writes(c)):
                    an.fail("InvalidClauseComposition",
                            f"{what} subqueries cannot contain clauses that update the graph", c.pos)
            if what == "COLLECT":
                last = part.clauses[-1]
                if not isinstance(last, A.Return) or last.projection.star or len(last.projection.items) != 1:
                    an.fail("InvalidClauseComposition",
                            "A COLLECT subquery must end with a RETURN of exactly one column", e.pos)
            for c in part.clauses:
                self._no_shadowing(c, scope)
            an.single(part, dict(scope))

    def _no_shadowing(self, c, scope: dict) -> None:
        items = ()
        if isinstance(c, (A.With, A.Return)):
            items = tuple((it.alias, it.expr, it.pos) for it in c.projection.items if it.alias is not None)
        elif isinstance(c, A.Unwind):
            items = ((c.variable, None, c.pos),)
        for name, expr, pos in items:
            if name in scope and not (isinstance(expr, A.Variable) and expr.name == name):
                self.an.fail("VariableAlreadyBound", f"The variable `{name}` is shadowing a variable with the "
                             "same name from the outer scope and needs to be renamed", pos)


