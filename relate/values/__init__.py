"""Cypher values as Python objects: the bottom layer that storage, exec, output and protocols
read (it imports only `relate.errors`, and `relate.temporal` on first use).

Cypher value -> Python:  null -> None, boolean -> bool, integer -> int (64-bit, `ints`),
float -> float, string -> str, list -> list, map -> dict, node -> Node, relationship ->
Relationship, path -> Path; temporal and spatial values are `relate.temporal`'s classes.

- `entities`: Node, Relationship, Path (the store's records);
- `kinds`: `type_name`, the number tests, the door to `relate.temporal`;
- `compare`: Cypher equality, comparison, the global sort order, grouping keys;
- `ints`: the 64-bit integer range;
- `jsonshape`: `to_json`, the JSON-ready shape of result cells;
- `text`: value -> text for each format (Cypher literal, toString, JSON floats, TOON scalars).
"""
from .entities import Node, Path, Relationship
from .jsonshape import to_json
from .kinds import type_name
from .text import to_text

__all__ = ["Node", "Path", "Relationship", "to_json", "to_text", "type_name"]
