"""Scopes: which variables an expression can see, the row slot of each, and what the earlier
clauses know about its type (`semantic/types.SType`).

The planner threads one `Scope` through the clauses of a query; the expression compiler reads
slots from it.  The types are no longer read here: the checks that used them run before planning,
on the checking stage's own copy of the scope (`semantic/names.py`).
"""
from __future__ import annotations

from ..semantic import types as T


class SlotMap(dict):
    """Variable name -> slot, carrying the variables' static types along when copied
    (`Scope(scope.slots)` keeps what the earlier clauses knew about each variable)."""

    __slots__ = ("types",)


class Scope:
    """Variable name -> slot in the row tuple, and name -> static type (`semantic/types.SType`;
    a variable without a recorded type is `ANY`)."""

    __slots__ = ("slots", "_typer")

    def __init__(self, slots: dict[str, int] | None = None, types: dict | None = None) -> None:
        self.slots = SlotMap(slots or {})
        if types is None:
            types = getattr(slots, "types", None) or {}
        self.slots.types = dict(types)
        self._typer = None

    @property
    def types(self) -> dict:
        return self.slots.types

    def has(self, name: str) -> bool:
        return name in self.slots

    def slot(self, name: str) -> int:
        return self.slots[name]

    def type_of(self, name: str) -> T.SType:
        return self.slots.types.get(name, T.ANY)

    def set_type(self, name: str, stype: T.SType) -> None:
        self.slots.types[name] = stype
        self._typer = None

    def extended(self, name: str, stype: T.SType | None = None) -> tuple["Scope", int]:
        s = Scope(self.slots)
        # past the highest slot, not at len(): a comprehension variable may shadow an outer one
        idx = max(s.slots.values(), default=-1) + 1
        s.slots[name] = idx
        if stype is not None:
            s.slots.types[name] = stype
        else:
            s.slots.types.pop(name, None)
        return s, idx

    @property
    def typer(self) -> T.Typer:
        if self._typer is None:
            self._typer = T.Typer(self.type_of)
        return self._typer

    def __len__(self) -> int:
        return len(self.slots)
