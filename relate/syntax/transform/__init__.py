"""lark parse tree -> typed AST (`syntax/ast.py`), in one bottom-up pass.

`Build` is the lark `Transformer`: its methods are named after the grammar's rules and aliases
(`cypher.lark`), one mixin per family of rules, each in its own module:

    statements.py    names, the statement frame, UNION
    clauses.py       MATCH ... CALL/YIELD
    schema.py        CREATE/DROP INDEX
    patterns.py      node and relationship patterns
    paths.py         quantified relationships and path patterns, path selectors
    literals.py      numbers, strings, maps, lists (and the 64-bit range after-pass)
    expressions.py   comprehensions, calls, CASE, map projections, subqueries
    operators.py     operators by precedence, property access, subscripts
    types.py         Cypher types (type predicates, property type constraints)
    base.py          the shared state: the statement text, positions, syntax errors
"""
from __future__ import annotations

from .base import BuildBase
from .clauses import ClauseRules
from .expressions import ExpressionRules
from .literals import LiteralRules, check_int_range
from .operators import OperatorRules
from .paths import PathRules
from .patterns import PatternRules
from .schema import SchemaRules
from .statements import StatementRules
from .types import TypeRules

__all__ = ["Build", "check_int_range"]


class Build(StatementRules, ClauseRules, SchemaRules, PatternRules, PathRules, LiteralRules, ExpressionRules,
            OperatorRules, TypeRules, BuildBase):
    """lark tree -> AST.  Rule methods are named after grammar rules and aliases."""
