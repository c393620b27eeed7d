"""Syntax tree nodes for the schema commands (`CREATE INDEX`, `DROP INDEX`, `CREATE CONSTRAINT`,
`DROP CONSTRAINT`): what the transform builds and `plan/schema_plan.py` turns into store calls.
Re-exported by `ast.py`, so every stage reads them as `A.CreateIndex`, ...
"""
from __future__ import annotations

from dataclasses import dataclass
from .ast_node import Node, Parameter


@dataclass(frozen=True, slots=True)
class CreateIndex(Node):
    name: str | Parameter | None  # a Parameter: the name is the parameter's value
    label: str                    # the label, or the relationship type
    variable: str | None
    properties: tuple[str, ...]
    if_not_exists: bool = False
    pos: int = 0
    kind: str = "RANGE"           # RANGE | TEXT | POINT | FULLTEXT
    entity: str = "NODE"          # NODE | RELATIONSHIP
    more_labels: tuple[str, ...] = ()  # FULLTEXT over several labels or types


@dataclass(frozen=True, slots=True)
class DropIndex(Node):
    name: str | Parameter
    if_exists: bool = False
    pos: int = 0


@dataclass(frozen=True, slots=True)
class CreateConstraint(Node):
    name: str | Parameter | None
    label: str                    # the label, or the relationship type
    variable: str
    properties: tuple[str, ...]
    kind: str                     # unique | not_null | key | type (storage.schema_defs.ConstraintKind)
    property_type: str | None = None  # kind type: the normalized type (`INTEGER | FLOAT`)
    if_not_exists: bool = False
    entity: str = "NODE"
    pos: int = 0


@dataclass(frozen=True, slots=True)
class DropConstraint(Node):
    name: str | Parameter
    if_exists: bool = False
    pos: int = 0


SCHEMA_COMMANDS = (CreateIndex, DropIndex, CreateConstraint, DropConstraint)
