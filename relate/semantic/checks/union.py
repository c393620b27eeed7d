"""The parts of a UNION: the same columns in the same order, and one kind of UNION throughout."""
from __future__ import annotations

from ...errors import E


def same_columns(before: tuple[str, ...] | None, columns: tuple[str, ...]) -> None:
    """`before`: the columns of the parts so far (None before the first)."""
    if before is not None and list(columns) != list(before):
        raise E.Semantic.DifferentColumnsInUnion()


def one_kind(union_all: tuple[bool, ...]) -> None:
    if any(union_all) and not all(union_all):
        raise E.Semantic.InvalidClauseComposition("Invalid combination of UNION and UNION ALL")
