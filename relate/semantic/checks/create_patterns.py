"""Patterns CREATE and MERGE make: one relationship type each, a direction for CREATE, a fixed
length; a name already bound may only stand for an existing node (the scoping pass refuses the
same rebindings first, with positions; these are the planner's own statements of them)."""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A


def _dynamic(r: A.RelPattern) -> bool:
    return isinstance(r.type_expr, A.DynamicLabel) and not r.type_expr.any


def create_rel(r: A.RelPattern) -> None:
    if len(r.types) != 1 and not _dynamic(r):
        raise E.Semantic.NoSingleRelationshipType(clause="CREATE")
    if r.direction is A.Direction.BOTH:
        raise E.Semantic.RequiresDirectedRelationship()
    if r.length is not None:
        raise E.Semantic.CreatingVarLength(clause="CREATE")


def merge_rel(r: A.RelPattern) -> None:
    if len(r.types) != 1 and not _dynamic(r):
        raise E.Semantic.NoSingleRelationshipType(clause="MERGE")
    if r.length is not None:
        raise E.Semantic.CreatingVarLength(clause="MERGE")


def bound_node(n: A.NodePattern) -> None:
    """A bound node named again in CREATE (or alone in MERGE) may not add labels or properties."""
    if n.labels or n.label_expr is not None or n.properties is not None:
        raise E.Semantic.VariableAlreadyBound(name=n.variable)


def bound_rel(r: A.RelPattern) -> None:
    raise E.Semantic.VariableAlreadyBound(name=r.variable)
