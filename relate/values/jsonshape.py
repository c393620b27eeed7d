"""A Cypher value -> a plain JSON-ready Python value: the shape result cells carry in every JSON
output (CLI modes, MCP replies, the browser), before `relate.jsonenc` writes it as text.

Scalars stay themselves (non-finite floats become null), lists and maps are converted member by
member, nodes / relationships / paths become maps with a `kind`, temporal values their ISO text,
byte arrays lists of integers 0 to 255.
"""
from __future__ import annotations

import math

from .entities import Node, Path, Relationship
from .kinds import temporal_of


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
        out: list[object] = []
        for i, node in enumerate(value.nodes):
            if i:
                out.append(to_json(value.rels[i - 1]))
            out.append(to_json(node))
        return {"kind": "path", "length": len(value.rels), "elements": out}
    t = temporal_of(value)
    if t is not None:
        return t.render(value)  # ISO 8601 text
    if isinstance(value, bytes):
        return list(value)  # a byte array: its bytes as integers 0 to 255
    raise TypeError(f"not a Cypher value: {value!r}")
