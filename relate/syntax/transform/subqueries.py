"""Transformer rules for Neo4j 5's subquery clauses and clause forms: `CALL { }` with its
variable scope clause, `OPTIONAL CALL`, `IN TRANSACTIONS` and its options, `FINISH`, the
standalone ORDER BY / SKIP / OFFSET / LIMIT, and the `COLLECT { }` expression -> `ast` nodes.

A standalone ORDER BY / SKIP / LIMIT is what Neo4j defines it to be, `WITH *` with that ORDER BY,
SKIP and LIMIT: the clause it follows is returned with such a WITH after it (`single_query`
flattens the pair).
"""
from __future__ import annotations

from lark import Token, v_args

from .. import ast as A
from .base import start_of


def _kw(c, name: str) -> bool:
    return any(isinstance(x, Token) and x.type == name for x in c)


class SubqueryRules:
    """Mixed into `transform.Build`."""

    @v_args(meta=True)
    def subquery_call(self, meta, c):
        query = next(x for x in c if isinstance(x, A.Query))
        scope, scope_all = None, False
        tx = None
        for x in c:
            if isinstance(x, tuple) and x and x[0] == "scope":
                scope, scope_all = x[1], x[2]
            elif isinstance(x, A.InTransactions):
                tx = x
        return A.SubqueryCall(query, scope, scope_all, _kw(c, "OPTIONAL"), tx, start_of(meta))

    def subquery_scope(self, c):
        if _kw(c, "STAR"):
            return ("scope", (), True)
        return ("scope", tuple(x for x in c if isinstance(x, A.Variable)), False)

    @v_args(meta=True)
    def in_transactions(self, meta, c):
        concurrent = _kw(c, "CONCURRENT")
        concurrency = None
        batch = None
        on_error, retry_for, retry_then, report = "FAIL", None, None, None
        seen_tx = False
        for x in c:
            if isinstance(x, Token):
                seen_tx = seen_tx or x.type == "TRANSACTIONS"
            elif isinstance(x, A.Expr) and not seen_tx:
                concurrency = x
            elif isinstance(x, tuple) and x[0] == "batch":
                batch = x[1]
            elif isinstance(x, tuple) and x[0] == "on_error":
                on_error, retry_for, retry_then = x[1], x[2], x[3]
            elif isinstance(x, tuple) and x[0] == "report":
                report = x[1]
        return A.InTransactions(batch, on_error, retry_for, retry_then, report, concurrent, concurrency,
                                start_of(meta))

    def tx_batch(self, c):
        return ("batch", next(x for x in c if isinstance(x, A.Expr)))

    def tx_on_error(self, c):
        return c[-1]

    def tx_error_mode(self, c):
        words = [str(x.type) for x in c if isinstance(x, Token)]
        if words[0] != "RETRY":
            return ("on_error", words[0], None, None)
        duration = next((x for x in c if isinstance(x, A.Expr)), None)
        then = None
        if "THEN" in words:
            then = words[words.index("THEN") + 1]
        return ("on_error", "RETRY", duration, then)

    def tx_report(self, c):
        return ("report", c[-1].name)

    @v_args(meta=True)
    def finish_clause(self, meta, c):
        return A.Finish(start_of(meta))

    @v_args(meta=True)
    def paged_clause(self, meta, c):
        clause, page = c
        order, skip, limit, pos = page
        return (clause, A.With(A.Projection((), True, False, order, skip, limit), None, pos))

    @v_args(meta=True)
    def page(self, meta, c):
        order, skip, limit = (), None, None
        for x in c:
            if x[0] == "order":
                order = x[1]
            elif x[0] == "skip":
                skip = x[1]
            elif x[0] == "limit":
                limit = x[1]
        return (order, skip, limit, start_of(meta))

    @v_args(meta=True)
    def collect_subquery(self, meta, c):
        name = c[0]
        if str(name).upper() != "COLLECT":
            raise self._err(f'unexpected token "{{" after {name}', c[1].start_pos)
        return A.CollectSubquery(one_part(c[2]), None, None, start_of(meta))


def one_part(q: A.Query) -> A.SingleQuery | A.Query:
    """A subquery expression's query: its single query when there is no UNION."""
    return q.parts[0] if len(q.parts) == 1 else q
