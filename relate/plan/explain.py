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
    """Ids in pre-order, descriptions built bottom-up; both with explicit stacks, so a plan of
    hundreds of clauses does not exhaust the interpreter stack."""
    if not root.shown:
        kids = _visible_children(root)
        if len(kids) == 1:
            root = kids[0]
    notes: list[Notification] = []
    order: list = []          # (operator, parent index) in pre-order; the index is the id
    stack = [(root, -1)]
    while stack:
        op, parent = stack.pop()
        my_id = len(order)
        order.append((op, parent))
        for w in op.warnings:
            notes.append(replace(w, operator_id=my_id))
        for c in reversed(_visible_children(op)):
            stack.append((c, my_id))
    children: list[list[PlanDescription]] = [[] for _ in order]
    built: list[PlanDescription | None] = [None] * len(order)
    for i in range(len(order) - 1, -1, -1):
        op, parent = order[i]
        d = PlanDescription(op.name, op.details, tuple(op.identifiers), tuple(op.warnings),
                            tuple(reversed(children[i])))
        built[i] = d
        if parent >= 0:
            children[parent].append(d)
    return built[0], notes
