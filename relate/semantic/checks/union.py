"""The parts of a UNION: the same columns in the same order, and one kind of UNION throughout."""
from __future__ import annotations

from ...errors import CypherSemanticError


def same_columns(before: tuple[str, ...] | None, columns: tuple[str, ...]) -> None:
    """`before`: the columns of the parts so far (None before the first)."""
    if before is not None and list(columns) != list(before):
        raise CypherSemanticError("DifferentColumnsInUnion",
                                  "All sub queries in an UNION must have the same return column names")


def one_kind(union_all: tuple[bool, ...]) -> None:
    if any(union_all) and not all(union_all):
        raise CypherSemanticError("InvalidClauseComposition", "Invalid combination of UNION and UNION ALL")
