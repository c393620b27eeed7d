"""Graph entities as Python objects: the store's node and relationship records, and paths.

Nodes and relationships are the store's own records: a row holds a reference, so reading a
property through it costs one dict lookup.  Equality is by identity of the record (ids are
unique per store), never by content.
"""
from __future__ import annotations


class Node:
    """A node record: id, label set and property map.  Mutated only by the store's writes.

    `labels` is a frozenset the store shares between nodes with the same labels (a label change
    replaces it).  `out_rels` / `in_rels` are the store's adjacency (the live relationships
    leaving / entering this node, oldest first; a tuple, or a dict keyed by them): only `Graph`
    reads or changes them."""

    __slots__ = ("id", "labels", "props", "deleted", "out_rels", "in_rels")

    def __init__(self, id: int, labels: frozenset[str] | set[str] | None = None,
                 props: dict[str, object] | None = None) -> None:
        self.id = id
        self.labels = labels if labels is not None else frozenset()
        self.props: dict[str, object] = props if props is not None else {}
        self.deleted = False
        self.out_rels: tuple[Relationship, ...] | dict[Relationship, None] = ()
        self.in_rels: tuple[Relationship, ...] | dict[Relationship, None] = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("n", self.id))

    def __repr__(self) -> str:
        return f"Node({self.id}, {sorted(self.labels)}, {self.props})"


class Relationship:
    """A relationship record: id, type, start and end node records, property map."""

    __slots__ = ("id", "type", "start", "end", "props", "deleted")

    def __init__(self, id: int, type: str, start: Node, end: Node, props: dict[str, object] | None = None) -> None:
        self.id = id
        self.type = type
        self.start = start
        self.end = end
        self.props: dict[str, object] = props if props is not None else {}
        self.deleted = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Relationship) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("r", self.id))

    def __repr__(self) -> str:
        return f"Relationship({self.id}, {self.type}, {self.start.id}->{self.end.id})"


class Path:
    """An alternating sequence node, relationship, node, ...; `nodes` has one more item than `rels`."""

    __slots__ = ("nodes", "rels")

    def __init__(self, nodes: tuple[Node, ...], rels: tuple[Relationship, ...]) -> None:
        self.nodes = nodes
        self.rels = rels

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Path) and other.nodes == self.nodes and other.rels == self.rels

    def __hash__(self) -> int:
        return hash((self.nodes, self.rels))

    def __len__(self) -> int:
        return len(self.rels)
