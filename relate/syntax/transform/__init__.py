"""lark parse tree -> typed AST (`syntax/ast.py`), in one bottom-up pass.

`Build` is the lark `Transformer`: its methods are named after the grammar's rules and aliases
(`cypher.lark`), one mixin per family of rules, each in its own module:

    statements.py    names, the statement frame, UNION
    clauses.py       MATCH ... CALL/YIELD
    load_csv.py      LOAD CSV
    schema.py        CREATE/DROP INDEX
    patterns.py      node and relationship patterns
    labels.py        label and type expressions, inline pattern WHERE
    paths.py         quantified relationships and path patterns, path selectors
    literals.py      numbers, strings, maps, lists (and the 64-bit range after-pass)
    expressions.py   comprehensions, calls, CASE, map projections, subqueries
    subqueries.py    CALL { } (scope clause, OPTIONAL, IN TRANSACTIONS), FINISH, standalone ORDER BY
    operators.py     operators by precedence, property access, subscripts
    types.py         Cypher types (type predicates, property type constraints)
    base.py          the shared state: the statement text, positions, syntax errors
"""
from __future__ import annotations

from .base import BuildBase
from .clauses import ClauseRules
from .expressions import ExpressionRules
from .labels import LabelRules
from .literals import LiteralRules, check_int_range
from .load_csv import LoadCsvRules
from .operators import OperatorRules
from .paths import PathRules
from .patterns import PatternRules
from .schema import SchemaRules
from .statements import StatementRules
from .subqueries import SubqueryRules
from .types import TypeRules

__all__ = ["Build", "check_int_range"]


class Build(StatementRules, ClauseRules, SubqueryRules, LoadCsvRules, SchemaRules, PatternRules, PathRules,
            LabelRules, LiteralRules, ExpressionRules, OperatorRules, TypeRules, BuildBase):
    """lark tree -> AST.  Rule methods are named after grammar rules and aliases."""
