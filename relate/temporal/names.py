"""Any value -> the lower-case Cypher name of its type, for error details (`a string argument`)."""
from __future__ import annotations

_PLAIN = {bool: "boolean", int: "integer", float: "float", str: "string", list: "list", dict: "map"}
_CLASSES = {"Date": "date", "LocalTime": "localtime", "Time": "time",
            "LocalDateTime": "localdatetime", "DateTime": "datetime", "Duration": "duration",
            "Point": "point", "Node": "node", "Relationship": "relationship", "Path": "path"}


def kind_name(v: object) -> str:
    if v is None:
        return "null"
    name = _PLAIN.get(type(v))
    if name is not None:
        return name
    return _CLASSES.get(type(v).__name__, type(v).__name__.lower())
