"""The engine's answers the checking stage asks for (`semantic.analyze.Catalog`): the function
table's arities, the procedure registry, and the planner's anchor choice for a pattern part (the
walk from the anchor decides which names a property map can read)."""
from __future__ import annotations

from ..exec.functions import lookup
from ..exec.match import PartMatcher, hidden_name
from ..semantic.analyze import Catalog


def _arity(name: str) -> tuple[int, int] | None:
    entry = lookup(name)
    return None if entry is None else (entry[1], entry[2])


class _Bound:
    __slots__ = ("names",)

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def has(self, name: str) -> bool:
        return name in self.names


def catalog(graph, procedures) -> Catalog:
    def anchor(el, bound: set[str], where) -> int:
        names = [n.variable or hidden_name("n", n.pos, i) for i, n in enumerate(el.nodes)]
        return PartMatcher._choose_anchor(el, names, _Bound(bound), graph, where, bound)
    return Catalog(_arity, procedures, anchor)
