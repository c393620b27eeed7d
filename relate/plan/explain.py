"""Physical plan -> `PlanDescription` tree and the plan's notifications with operator ids.

Operators that only shape rows (narrowing, sorting, skipping) are folded into the visible
operator above them; ids are assigned to visible operators in pre-order from the root (0).
"""
from __future__ import annotations

from dataclasses import replace

from ..result import Notification, PlanDescription


def _visible_children(op) -> list:
    out = []
    stack = list(reversed(op.children()))
    while stack:
        c = stack.pop()
        if c is None:
            continue
        if c.shown:
            out.append(c)
        else:
            stack.extend(reversed(c.children()))
    return out


def describe(root) -> tuple[PlanDescription, list[Notification]]:
    notes: list[Notification] = []
    counter = [0]

    def build(op) -> PlanDescription:
        my_id = counter[0]
        counter[0] += 1
        for w in op.warnings:
            notes.append(replace(w, operator_id=my_id))
        kids = tuple(build(c) for c in _visible_children(op))
        return PlanDescription(op.name, op.details, tuple(op.identifiers), tuple(op.warnings), kids)

    if not root.shown:
        kids = _visible_children(root)
        if len(kids) == 1:
            root = kids[0]
    return build(root), notes
