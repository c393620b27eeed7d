"""Transformer rules for names and the statement frame: statement (with EXPLAIN/PROFILE) ->
query -> UNION parts -> single queries (lists of clauses)."""
from __future__ import annotations

from lark import Token, v_args

from .. import ast as A
from .base import name_of, start_of


class StatementRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    # ---- names
    def symbolic_name(self, c):
        return name_of(c[0]) if isinstance(c[0], Token) else c[0]

    def keyword(self, c):
        return str(c[0])

    def procedure_part(self, c):
        return name_of(c[0])

    label_name = rel_type_name = prop_name = index_name = symbolic_name

    @v_args(meta=True)
    def variable(self, meta, c):
        return A.Variable(name_of(c[0]), start_of(meta))

    # ---- statement
    def start(self, c):
        return c[0]

    def statement(self, c):
        explain = profile = False
        body = None
        for x in c:
            if isinstance(x, Token):
                continue
            if isinstance(x, tuple) and x and x[0] == "explain":
                explain, profile = x[1] == "EXPLAIN", x[1] == "PROFILE"
            else:
                body = x
        return A.Statement(body, explain=explain, profile=profile, text=self.text)

    def explain(self, c):
        return ("explain", str(c[0]).upper())

    def regular_query(self, c):
        parts = [c[0]]
        alls = []
        for u in c[1:]:
            alls.append(u[0])
            parts.append(u[1])
        return A.Query(tuple(parts), tuple(alls))

    def union(self, c):
        is_all = any(isinstance(x, Token) and x.type == "ALL" for x in c)
        return (is_all, c[-1])

    def single_query(self, c):
        # a standalone ORDER BY / SKIP / LIMIT comes as (clause, WITH *): `subqueries.py`
        return A.SingleQuery(tuple(x for y in c for x in (y if isinstance(y, tuple) else (y,))))
