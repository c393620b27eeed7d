"""A Cypher value -> a `cypher_query` cell: plain JSON (the default) or the tagged form.

Plain cells are the JSON cell shape of `values/jsonshape.py` (nodes, relationships and paths as
maps with a `kind`, temporal values as ISO-8601 text, byte arrays as lists of integers), except
that a float that is infinite or not a number is the string "Infinity", "-Infinity" or "NaN"
(JSON has no such numbers; the 1.4.1 rule), where the shared shape has null.

Tagged cells (`format: "tagged"`) say each value's Cypher type, so a reader can tell the
string "1" from the integer 1 or a date from its text: every non-null value is an object
`{"type": T, "value": V}` with T the type's Neo4j name (`BOOLEAN`, `INTEGER`, `FLOAT`, `STRING`,
`LIST`, `MAP`, `NODE`, `RELATIONSHIP`, `PATH`, `DATE`, `LOCAL TIME`, `ZONED TIME`,
`LOCAL DATETIME`, `ZONED DATETIME`, `DURATION`, `POINT`, `BYTES`) and V:
  scalars     the plain JSON value (a non-finite float as its string, as above)
  temporal    the ISO-8601 text; a point its Cypher text
  LIST        a list of tagged cells
  MAP         an object of tagged cells
  NODE        {"id", "labels", "properties": {key: tagged cell}}
  RELATIONSHIP {"id", "type", "start", "end", "properties": {key: tagged cell}}
  PATH        {"nodes": [tagged NODE], "relationships": [tagged RELATIONSHIP]}
  BYTES       a list of integers 0 to 255
A null cell is JSON null in both forms (a tagged null is not wrapped).
"""
from __future__ import annotations

import math

from ..values import to_json
from ..values.cypher_types import kind
from ..values.entities import Node, Path, Relationship


def float_cell(value: float) -> float | str:
    if math.isfinite(value):
        return value
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def plain(value: object) -> object:
    """A value as a plain JSON cell."""
    if value is None or value is True or value is False or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return float_cell(value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, Node):
        return {"id": value.id, "kind": "node", "labels": sorted(value.labels), "properties": _props(value, plain)}
    if isinstance(value, Relationship):
        return {"id": value.id, "kind": "relationship", "type": value.type, "start_node": value.start.id,
                "end_node": value.end.id, "properties": _props(value, plain)}
    if isinstance(value, Path):
        out: list[object] = []
        for i, node in enumerate(value.nodes):
            if i:
                out.append(plain(value.rels[i - 1]))
            out.append(plain(node))
        return {"kind": "path", "length": len(value.rels), "elements": out}
    return to_json(value)  # temporal values, points and byte arrays


def tagged(value: object) -> object:
    """A value as a tagged cell."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return {"type": "BYTES", "value": list(value)}
    name = kind(value)
    if name == "LIST":
        return {"type": name, "value": [tagged(v) for v in value]}  # type: ignore[attr-defined]
    if name == "MAP":
        return {"type": name, "value": {k: tagged(v) for k, v in value.items()}}  # type: ignore[attr-defined]
    if isinstance(value, Node):
        return {"type": name, "value": {"id": value.id, "labels": sorted(value.labels),
                                        "properties": _props(value, tagged)}}
    if isinstance(value, Relationship):
        return {"type": name, "value": {"id": value.id, "type": value.type, "start": value.start.id,
                                        "end": value.end.id, "properties": _props(value, tagged)}}
    if isinstance(value, Path):
        return {"type": name, "value": {"nodes": [tagged(n) for n in value.nodes],
                                        "relationships": [tagged(r) for r in value.rels]}}
    return {"type": name, "value": plain(value)}


def _props(entity, cell) -> dict:
    return {k: cell(v) for k, v in entity.props.items()}


FORMATS = {"plain": plain, "tagged": tagged}
