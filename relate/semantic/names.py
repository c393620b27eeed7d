"""The names a clause sees while the planner builds it, with their static types: the checking
stage's copy of the planner's scope, without slots.

It follows the planner's scope step for step, because the checks must see what the compiled
expressions will see: a name a pattern binds has no known type (ANY) until its part ends, a
projection's columns take the types of their expressions, an aggregation's inner names are ANY.
"""
from __future__ import annotations

from . import types as T


class Names:
    __slots__ = ("types", "_typer")

    def __init__(self, types: dict | None = None) -> None:
        self.types: dict[str, T.SType | None] = dict(types) if types else {}  # None: not known
        self._typer: T.Typer | None = None

    def has(self, name: str) -> bool:
        return name in self.types

    def type_of(self, name: str) -> T.SType:
        t = self.types.get(name)
        return T.ANY if t is None else t

    def copy(self) -> "Names":
        return Names(self.types)

    def extended(self, name: str, stype: T.SType | None = None) -> "Names":
        out = Names(self.types)
        out.types[name] = stype
        return out

    def set_type(self, name: str, stype: T.SType) -> None:
        self.types[name] = stype
        self._typer = None

    @property
    def typer(self) -> T.Typer:
        if self._typer is None:
            self._typer = T.Typer(self.type_of)
        return self._typer
