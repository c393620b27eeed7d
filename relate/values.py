"""Cypher values as Python objects, and their JSON and text forms.

Cypher value -> Python:  null -> None, boolean -> bool, integer -> int (64-bit checked by the
engine), float -> float, string -> str, list -> list, map -> dict, node -> Node, relationship ->
Relationship, path -> Path; temporal and spatial values are `relate.temporal`'s classes.

Nodes and relationships are the store's own records: a row holds a reference, so reading a
property through it costs one dict lookup.  Equality is by identity of the record (ids are
unique per store), never by content.
"""
from __future__ import annotations

import math
import re


class Node:
    """A node record: id, label set and property map.  Mutated only by the store's writes.

    `labels` is a frozenset the store shares between nodes with the same labels (a label change
    replaces it).  `out_rels` / `in_rels` are the store's adjacency (the live relationships
    leaving / entering this node, oldest first; a tuple, or a dict keyed by them): only `Graph`
    reads or changes them."""

    __slots__ = ("id", "labels", "props", "deleted", "out_rels", "in_rels")

    def __init__(self, id: int, labels: frozenset[str] | set[str] | None = None,
                 props: dict | None = None) -> None:
        self.id = id
        self.labels = labels if labels is not None else frozenset()
        self.props: dict = props if props is not None else {}
        self.deleted = False
        self.out_rels: list | tuple = ()
        self.in_rels: list | tuple = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("n", self.id))

    def __repr__(self) -> str:
        return f"Node({self.id}, {sorted(self.labels)}, {self.props})"


class Relationship:
    """A relationship record: id, type, start and end node records, property map."""

    __slots__ = ("id", "type", "start", "end", "props", "deleted")

    def __init__(self, id: int, type: str, start: Node, end: Node, props: dict | None = None) -> None:
        self.id = id
        self.type = type
        self.start = start
        self.end = end
        self.props: dict = props if props is not None else {}
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


def type_name(value: object) -> str:
    """The `columnTypes` name of one value (null is `ANY`)."""
    if value is None:
        return "ANY"
    if value is True or value is False:
        return "BOOLEAN"
    if isinstance(value, int):
        return "INTEGER"
    if isinstance(value, float):
        return "FLOAT"
    if isinstance(value, str):
        return "STRING"
    if isinstance(value, list):
        return "LIST"
    if isinstance(value, dict):
        return "MAP"
    if isinstance(value, Node):
        return "NODE"
    if isinstance(value, Relationship):
        return "RELATIONSHIP"
    if isinstance(value, Path):
        return "PATH"
    temporal = _temporal(value)
    if temporal is not None:
        return temporal.type_name(value)
    return "ANY"


def _temporal(value: object):
    """The `relate.temporal` module when `value` is a temporal or spatial value, else None
    (imported on first use: only values of no basic kind get here)."""
    from . import temporal
    return temporal if temporal.is_value(value) else None


def to_json(value: object) -> object:
    """A Cypher value as a plain JSON-ready Python value (the shape results carry)."""
    if value is None or value is True or value is False or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, Node):
        return {"id": value.id, "kind": "node", "labels": sorted(value.labels),
                "properties": {k: to_json(v) for k, v in value.props.items()}}
    if isinstance(value, Relationship):
        return {"id": value.id, "kind": "relationship", "type": value.type,
                "start_node": value.start.id, "end_node": value.end.id,
                "properties": {k: to_json(v) for k, v in value.props.items()}}
    if isinstance(value, Path):
        out: list = []
        for i, node in enumerate(value.nodes):
            if i:
                out.append(to_json(value.rels[i - 1]))
            out.append(to_json(node))
        return {"kind": "path", "length": len(value.rels), "elements": out}
    if _temporal(value) is not None:
        return _temporal(value).render(value)  # ISO 8601 text
    raise TypeError(f"not a Cypher value: {value!r}")


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
            "\f": "\\f"}
_NEEDS_ESCAPE = re.compile(r'[\\"\x00-\x1f\x7f]')


def _escape(m: re.Match) -> str:
    c = m.group()
    return _ESCAPES.get(c) or f"\\u{ord(c):04x}"


def _quote(text: str) -> str:
    # control characters are written as escapes, so one value stays on one line of a table
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def _key(name: str) -> str:
    if name and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name):
        return name
    return "`" + name.replace("`", "``") + "`"


def _props(props: dict) -> str:
    if not props:
        return ""
    return " {" + ", ".join(f"{_key(k)}: {to_text(v)}" for k, v in props.items()) + "}"


def to_text(value: object) -> str:
    """A Cypher value as Cypher-literal text (the table output mode and TCK comparisons)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, list):
        return "[" + ", ".join(to_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {to_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Node):
        labels = "".join(":" + _key(label) for label in sorted(value.labels))
        return f"({labels}{_props(value.props)})"
    if isinstance(value, Relationship):
        return f"[:{_key(value.type)}{_props(value.props)}]"
    if isinstance(value, Path):
        parts = [to_text(value.nodes[0])]
        for i, rel in enumerate(value.rels):
            prev = value.nodes[i]
            parts.append(f"-{to_text(rel)}->" if rel.start is prev else f"<-{to_text(rel)}-")
            parts.append(to_text(value.nodes[i + 1]))
        return "<" + "".join(parts) + ">"
    if _temporal(value) is not None:
        return _temporal(value).render(value)
    raise TypeError(f"not a Cypher value: {value!r}")
