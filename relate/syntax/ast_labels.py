"""Syntax tree nodes for Neo4j 5 label and type expressions (`:A|B`, `:!A`, `%`, `$(expr)`) and
for Cypher type names (`CypherType`, as type predicates and property type constraints write
them).  Re-exported by `ast.py`, so every stage reads them as `A.LabelOr`, `A.CypherType`, ...
"""
from __future__ import annotations

from dataclasses import dataclass

from .ast_node import Expr, Node


@dataclass(frozen=True, slots=True)
class LabelExpr(Node):
    """A Neo4j 5 label (or relationship type) expression."""


@dataclass(frozen=True, slots=True)
class LabelName(LabelExpr):
    name: str
    pos: int = 0


@dataclass(frozen=True, slots=True)
class LabelWildcard(LabelExpr):
    """`%`: any label (a node with at least one; every relationship)."""

    pos: int = 0


@dataclass(frozen=True, slots=True)
class LabelNot(LabelExpr):
    operand: LabelExpr
    pos: int = 0


@dataclass(frozen=True, slots=True)
class LabelAnd(LabelExpr):
    operands: tuple[LabelExpr, ...]
    pos: int = 0


@dataclass(frozen=True, slots=True)
class LabelOr(LabelExpr):
    operands: tuple[LabelExpr, ...]
    pos: int = 0


@dataclass(frozen=True, slots=True)
class DynamicLabel(LabelExpr):
    """`$(expr)` / `$all(expr)` (every label the string or list names) or `$any(expr)`."""

    expr: Expr
    any: bool = False
    pos: int = 0


@dataclass(frozen=True, slots=True)
class CypherType(Node):
    """A Cypher type as type predicates and property type constraints write it, by its canonical
    Neo4j name: `INTEGER`, `ZONED DATETIME`, `PROPERTY VALUE`, `ANY`, `NOTHING`, `NULL`, ...;
    `LIST` with its element type in `inner`; `UNION` (a closed dynamic union) with its member
    types in `members`.  `nullable` is False after `NOT NULL` (a union's members agree on it)."""

    name: str
    nullable: bool = True
    inner: "CypherType | None" = None
    members: tuple["CypherType", ...] = ()
    pos: int = 0

    def text(self) -> str:
        """Neo4j's spelling (`LIST<INTEGER NOT NULL>`, `INTEGER | STRING`)."""
        if self.name == "UNION":
            return " | ".join(m.text() for m in self.members)
        base = f"LIST<{self.inner.text()}>" if self.inner is not None else self.name
        return base if self.nullable or self.name in ("NOTHING", "NULL") else base + " NOT NULL"
