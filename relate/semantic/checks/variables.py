"""Names read before they are bound, and names bound a second time, in the order the planner
builds (a pattern's property map sees only what the walk bound before it)."""
from __future__ import annotations

from ...errors import E
from ...syntax.position import position


def defined(name: str, bound: bool, pos: int | None, text: str) -> None:
    """`pos` None: the error carries no position (as the planner reported it)."""
    if not bound:
        raise E.Semantic.UndefinedVariable(
            name=name, position=position(text, pos) if text and pos is not None else None)


def fresh(name: str, bound: bool) -> None:
    if bound:
        raise E.Semantic.VariableAlreadyBound(name=name)
