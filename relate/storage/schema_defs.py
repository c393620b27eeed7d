"""The schema objects a graph keeps: index and constraint definitions (frozen), as
`CREATE INDEX` / `CREATE CONSTRAINT` turn into them and the snapshot and the redo ops store them.
Keeping data to them (index entries) is `Graph`'s business; checking writes against a constraint
is `constraint_check.py`'s.

An index is on one label (or relationship type: `entity` "RELATIONSHIP") and one or more keys
(`keys`, in order; `key` is the first); `type` is Neo4j's index type (RANGE, TEXT, POINT,
FULLTEXT).  A single-key RANGE index keeps entries (`Graph.index_data` /
`Graph.rel_index_data`) and answers seeks (node indexes: equality, IN, ranges and STARTS WITH,
through `index_order.py` for the ordered ones; relationship indexes: equality); a composite RANGE
node index, a TEXT and a POINT node index keep theirs in `Graph.node_entries` (`index_entries.py`:
equalities then a range, CONTAINS and ENDS WITH, a box or a distance); the others are listed and kept, and the
planner scans where they stand (the answers are the same).  A uniqueness or key constraint owns
an index of its own name (`owner`), made and dropped with it.

The stored forms stay readable by the code that wrote the first ones: a plain index is
`[name, label, key]` and a node constraint without a type `[name, kind, label, [keys]]`; what the
later kinds add is appended (`index_row`, `constraint_row` and their readers); an index with
options (a declared full-text index's analyzer) has them as a map in an eighth place.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

NODE = "NODE"
RELATIONSHIP = "RELATIONSHIP"


@dataclass(frozen=True, slots=True)
class IndexDef:
    name: str
    label: str                      # the label, or the relationship type
    key: str                        # the first (often the only) key
    type: str = "RANGE"             # RANGE | TEXT | POINT | FULLTEXT
    entity: str = NODE
    more_keys: tuple[str, ...] = ()     # the keys after `key`, in order (composite indexes)
    more_labels: tuple[str, ...] = ()   # the labels after `label` (full-text indexes)
    owner: str | None = None            # the constraint that owns it
    options: tuple[tuple[str, object], ...] = ()  # sorted (name, value) pairs (a full-text index's analyzer)

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key,) + self.more_keys

    @property
    def labels(self) -> tuple[str, ...]:
        return (self.label,) + self.more_labels

    @property
    def seekable(self) -> bool:
        """Whether it keeps entries and answers `key = value` (a single-key RANGE index)."""
        return self.type == "RANGE" and not self.more_keys and not self.more_labels

    @property
    def entries_kind(self) -> str | None:
        """Which other node index keeps entries (`index_entries.py`): "composite" (a RANGE index on
        several keys), "text" (a TEXT index), "point" (a POINT index), else None."""
        if self.entity != NODE or self.more_labels:
            return None
        if self.type == "RANGE" and self.more_keys:
            return "composite"
        if self.type == "TEXT" and not self.more_keys:
            return "text"
        if self.type == "POINT" and not self.more_keys:
            return "point"
        return None

    def same_schema(self, other: "IndexDef") -> bool:
        return (self.type, self.entity, self.labels, self.keys) == (other.type, other.entity, other.labels,
                                                                     other.keys)


class ConstraintKind(Enum):
    UNIQUE = "unique"
    NOT_NULL = "not_null"
    KEY = "key"          # unique and present, over all its keys together
    TYPE = "type"        # the property, when present, has the constraint's type


@dataclass(frozen=True, slots=True)
class ConstraintDef:
    """A constraint's definition, as the store keeps it; checking writes against it is
    `constraint_check.py`'s business."""

    name: str
    kind: ConstraintKind
    label: str                      # the label, or the relationship type
    keys: tuple[str, ...]
    entity: str = NODE
    property_type: str | None = None    # TYPE: the normalized type text (`INTEGER | FLOAT`)

    @property
    def owns_index(self) -> bool:
        return self.kind in (ConstraintKind.UNIQUE, ConstraintKind.KEY)

    def owned_index(self) -> IndexDef:
        return IndexDef(self.name, self.label, self.keys[0], "RANGE", self.entity, tuple(self.keys[1:]),
                        owner=self.name)

    @property
    def type_name(self) -> str:
        """The constraint type as SHOW CONSTRAINTS names it (Neo4j 5.x)."""
        rel = self.entity == RELATIONSHIP
        if self.kind is ConstraintKind.UNIQUE:
            return "RELATIONSHIP_UNIQUENESS" if rel else "UNIQUENESS"
        if self.kind is ConstraintKind.KEY:
            return "RELATIONSHIP_KEY" if rel else "NODE_KEY"
        if self.kind is ConstraintKind.NOT_NULL:
            return "RELATIONSHIP_PROPERTY_EXISTENCE" if rel else "NODE_PROPERTY_EXISTENCE"
        return "RELATIONSHIP_PROPERTY_TYPE" if rel else "NODE_PROPERTY_TYPE"


# ---------------------------------------------------------------- stored forms

def index_row(d: IndexDef) -> list:
    row: list = [d.name, d.label, d.key]
    if d.type != "RANGE" or d.entity != NODE or d.more_keys or d.more_labels or d.options:
        row += [d.type, d.entity, list(d.more_keys), list(d.more_labels)]
    if d.options:
        row.append(dict(d.options))
    return row


def index_from_row(row) -> IndexDef:
    if len(row) == 3:
        return IndexDef(row[0], row[1], row[2])
    name, label, key, type_, entity, more_keys, more_labels = row[:7]
    options = tuple(sorted(row[7].items())) if len(row) > 7 else ()
    return IndexDef(name, label, key, type_, entity, tuple(more_keys), tuple(more_labels), options=options)


def constraint_row(c: ConstraintDef) -> list:
    row: list = [c.name, c.kind.value, c.label, list(c.keys)]
    if c.entity != NODE or c.property_type is not None:
        row += [c.entity, c.property_type]
    return row


def constraint_from_row(row) -> ConstraintDef:
    entity, ptype = (row[4], row[5]) if len(row) > 4 else (NODE, None)
    return ConstraintDef(row[0], ConstraintKind(row[1]), row[2], tuple(row[3]), entity, ptype)
