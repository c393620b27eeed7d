"""Names read before they are bound, and names bound a second time, in the order the planner
builds (a pattern's property map sees only what the walk bound before it)."""
from __future__ import annotations

from ...errors import CypherSemanticError
from ...syntax.position import position


def defined(name: str, bound: bool, pos: int | None, text: str) -> None:
    """`pos` None: the error carries no position (as the planner reported it)."""
    if not bound:
        raise CypherSemanticError("UndefinedVariable", f"Variable `{name}` not defined",
                                  position=position(text, pos) if text and pos is not None else None)


def fresh(name: str, bound: bool) -> None:
    if bound:
        raise CypherSemanticError("VariableAlreadyBound", f"Variable `{name}` already declared")
