"""Transformer rules for LOAD CSV -> `ast.LoadCsv` (what the terminator may be is checked in
`semantic/checks/load_csv.py`)."""
from __future__ import annotations

from lark import v_args

from .. import ast as A
from .base import start_of


class LoadCsvRules:
    """Mixed into `transform.Build`."""

    @v_args(meta=True)
    def load_csv_clause(self, meta, c):
        headers = any(isinstance(x, tuple) and x[0] == "headers" for x in c)
        terminator = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "terminator"), None)
        source = next(x for x in c if isinstance(x, A.Expr))
        variable = next(x for x in c if isinstance(x, A.Variable) and x is not source)
        return A.LoadCsv(source, variable.name, headers, terminator, start_of(meta))

    def load_csv_headers(self, c):
        return ("headers",)

    def load_csv_terminator(self, c):
        return ("terminator", c[-1])
