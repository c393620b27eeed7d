"""Patterns CREATE and MERGE make: one relationship type each, a direction for CREATE, a fixed
length; a name already bound may only stand for an existing node (the scoping pass refuses the
same rebindings first, with positions; these are the planner's own statements of them)."""
from __future__ import annotations

from ...errors import CypherSemanticError
from ...syntax import ast as A


def create_rel(r: A.RelPattern) -> None:
    if len(r.types) != 1:
        raise CypherSemanticError("NoSingleRelationshipType",
                                  "A single relationship type must be specified for CREATE")
    if r.direction is A.Direction.BOTH:
        raise CypherSemanticError("RequiresDirectedRelationship",
                                  "Only directed relationships are supported in CREATE")
    if r.length is not None:
        raise CypherSemanticError("CreatingVarLength", "Variable length relationships cannot be used in CREATE")


def merge_rel(r: A.RelPattern) -> None:
    if len(r.types) != 1:
        raise CypherSemanticError("NoSingleRelationshipType",
                                  "A single relationship type must be specified for MERGE")
    if r.length is not None:
        raise CypherSemanticError("CreatingVarLength", "Variable length relationships cannot be used in MERGE")


def bound_node(n: A.NodePattern) -> None:
    """A bound node named again in CREATE (or alone in MERGE) may not add labels or properties."""
    if n.labels or n.properties is not None:
        raise CypherSemanticError("VariableAlreadyBound", f"Variable `{n.variable}` already declared")


def bound_rel(r: A.RelPattern) -> None:
    raise CypherSemanticError("VariableAlreadyBound", f"Variable `{r.variable}` already declared")
