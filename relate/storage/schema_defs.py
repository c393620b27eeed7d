"""The schema objects a graph keeps: index and constraint definitions (frozen), as
`CREATE INDEX` / `CREATE CONSTRAINT` turn into them and the snapshot and the redo ops store them.
Keeping data to them (index entries) is `Graph`'s business; checking writes against a constraint
is the engine's."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True, slots=True)
class IndexDef:
    name: str
    label: str
    key: str


class ConstraintKind(Enum):
    UNIQUE = "unique"
    NOT_NULL = "not_null"
    KEY = "key"          # unique and present, over all its keys together


@dataclass(frozen=True, slots=True)
class ConstraintDef:
    """A constraint's definition, as the store keeps it; checking writes against it is the
    engine's business."""

    name: str
    kind: ConstraintKind
    label: str
    keys: tuple[str, ...]
