"""Cypher values <-> the JSON of Neo4j's HTTP Query API v2, in its two dialects.

Plain JSON (`application/json`): scalars as JSON, byte arrays as base64 text, temporal values and
durations as ISO-8601 text, points as WKT (`SRID=7203;POINT (1.2 3.4)`), a node as
`{elementId, labels, properties}`, a relationship as `{elementId, startNodeElementId,
endNodeElementId, type, properties}`, a path as the list node, relationship, node, ...  Plain
parameters are JSON values as they are (a date sent this way arrives as text).

Typed JSON (`application/vnd.neo4j.query`): every value is `{"$type": T, "_value": V}`; integers
and floats travel as text so that 64-bit integers and NaN survive.  Typed parameters decode back
into engine values; a malformed one is a `Request.Invalid` error naming what was wrong.
Element ids are the engine's `elementId()`, the same text Bolt sends.
"""
from __future__ import annotations

import base64
import binascii
import math
import re

from ..errors import E
from ..values import Node, Path, Relationship
from ..values.text import java_double
from .bolt_values import node_element_id, rel_element_id

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
MAX_DEPTH = 200  # nesting of a typed parameter; deeper JSON never reaches here (the decoder's own limit)


# ---------------------------------------------------------------- engine -> JSON
def _temporal_type(v) -> str | None:
    from ..temporal.duration import Duration
    from ..temporal.values import Date, DateTime, LocalDateTime, LocalTime, Time
    if isinstance(v, Date):
        return "Date"
    if isinstance(v, LocalTime):
        return "LocalTime"
    if isinstance(v, Time):
        return "Time"
    if isinstance(v, LocalDateTime):
        return "LocalDateTime"
    if isinstance(v, DateTime):
        return "ZonedDateTime" if v.zone else "OffsetDateTime"
    if isinstance(v, Duration):
        return "Duration"
    return None


def wkt(p) -> str:
    coords = " ".join(java_double(float(c)) for c in p.coords)
    return f"SRID={p.srid};POINT{' Z' if len(p.coords) == 3 else ''} ({coords})"


def _float_text(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return java_double(x)


def plain(v):
    """An engine value -> plain JSON."""
    if v is None or v is True or v is False or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else _float_text(v)
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, bytes):
        return base64.b64encode(v).decode("ascii")
    if isinstance(v, Node):
        return {"elementId": node_element_id(v), "labels": sorted(v.labels),
                "properties": {k: plain(x) for k, x in v.props.items()}}
    if isinstance(v, Relationship):
        return {"elementId": rel_element_id(v), "startNodeElementId": node_element_id(v.start),
                "endNodeElementId": node_element_id(v.end), "type": v.type,
                "properties": {k: plain(x) for k, x in v.props.items()}}
    if isinstance(v, Path):
        return [plain(x) for x in _path_items(v)]
    if _temporal_type(v) is not None:
        return str(v)
    from ..temporal.point import Point
    if isinstance(v, Point):
        return wkt(v)
    raise E.Internal.Internal(f"no Query API form for a {type(v).__name__} value")


def _path_items(p: Path) -> list:
    items: list = [p.nodes[0]]
    for r, n in zip(p.rels, p.nodes[1:]):
        items += [r, n]
    return items


def _t(kind: str, value) -> dict:
    return {"$type": kind, "_value": value}


def typed(v):
    """An engine value -> typed JSON."""
    if v is None:
        return _t("Null", None)
    if v is True or v is False:
        return _t("Boolean", v)
    if isinstance(v, int):
        return _t("Integer", str(v))
    if isinstance(v, float):
        return _t("Float", _float_text(v))
    if isinstance(v, str):
        return _t("String", v)
    if isinstance(v, (list, tuple)):
        return _t("List", [typed(x) for x in v])
    if isinstance(v, dict):
        return _t("Map", {k: typed(x) for k, x in v.items()})
    if isinstance(v, bytes):
        return _t("Base64", base64.b64encode(v).decode("ascii"))
    if isinstance(v, Node):
        return _t("Node", {"_element_id": node_element_id(v), "_labels": sorted(v.labels),
                           "_properties": {k: typed(x) for k, x in v.props.items()}})
    if isinstance(v, Relationship):
        return _t("Relationship", {"_element_id": rel_element_id(v),
                                   "_start_node_element_id": node_element_id(v.start),
                                   "_end_node_element_id": node_element_id(v.end), "_type": v.type,
                                   "_properties": {k: typed(x) for k, x in v.props.items()}})
    if isinstance(v, Path):
        return _t("Path", [typed(x) for x in _path_items(v)])
    kind = _temporal_type(v)
    if kind is not None:
        return _t(kind, str(v))
    from ..temporal.point import Point
    if isinstance(v, Point):
        return _t("Point", wkt(v))
    raise E.Internal.Internal(f"no Query API form for a {type(v).__name__} value")


# ---------------------------------------------------------------- JSON -> engine (parameters)
def _invalid(detail: str):
    return E.Request.Invalid(f"invalid parameter: {detail}")


_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_WKT = re.compile(r"\s*SRID=(\d+)\s*;\s*POINT\s*(Z\s*)?\(\s*([^()]*?)\s*\)\s*", re.I)
_TEMPORAL_KINDS = {"Date": "date", "Time": "time", "LocalTime": "localtime", "LocalDateTime": "localdatetime",
                   "OffsetDateTime": "datetime", "ZonedDateTime": "datetime"}


def _text(kind: str, value) -> str:
    if not isinstance(value, str):
        raise _invalid(f"a {kind} takes its _value as a string")
    return value


def _float(kind: str, text: str) -> float:
    special = {"nan": math.nan, "infinity": math.inf, "-infinity": -math.inf, "+infinity": math.inf,
               "inf": math.inf, "-inf": -math.inf}
    low = text.strip().lower()
    if low in special:
        return special[low]
    if not _FLOAT.fullmatch(text.strip()):
        raise _invalid(f"{text!r} is not a {kind}")
    return float(text)


def point_from_wkt(text: str):
    from ..temporal.point import CRS_BY_SRID, Point
    m = _WKT.fullmatch(text)
    if m is None:
        raise _invalid(f"{text!r} is not a WKT point (SRID=7203;POINT (x y))")
    srid = int(m.group(1))
    parts = m.group(3).split()
    dims = 3 if m.group(2) else 2
    if len(parts) != dims:
        raise _invalid(f"{text!r} has {len(parts)} coordinates, not {dims}")
    coords = tuple(_float("Point coordinate", c) for c in parts)
    if srid not in CRS_BY_SRID or (srid in (7203, 4326)) != (dims == 2):
        raise _invalid(f"a Point with SRID {srid}: relate knows 7203 and 4326 (2D), 9157 and 4979 (3D)")
    return Point(srid, coords)


def from_typed(v, depth: int = 0):
    """A typed JSON parameter -> an engine value (a bare JSON value is taken as plain)."""
    if depth > MAX_DEPTH:
        raise _invalid("nested too deeply")
    if isinstance(v, list):
        return [from_typed(x, depth + 1) for x in v]
    if not isinstance(v, dict):
        return v
    if set(v) != {"$type", "_value"}:
        return {k: from_typed(x, depth + 1) for k, x in v.items()}
    kind, value = v["$type"], v["_value"]
    if kind == "Null":
        return None
    if kind == "Boolean":
        if not isinstance(value, bool):
            raise _invalid("a Boolean takes true or false")
        return value
    if kind == "Integer":
        text = value if isinstance(value, str) else None
        if isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
        if text is None or not re.fullmatch(r"[+-]?\d+", text.strip()):
            raise _invalid(f"{value!r} is not an Integer")
        n = int(text)
        if not INT64_MIN <= n <= INT64_MAX:
            raise _invalid(f"{text} is outside the 64-bit integer range")
        return n
    if kind == "Float":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        return _float("Float", _text(kind, value))
    if kind == "String":
        return _text(kind, value)
    if kind == "Base64":
        try:
            return base64.b64decode(_text(kind, value), validate=True)
        except (binascii.Error, ValueError):
            raise _invalid("a Base64 _value is not base64 text") from None
    if kind == "List":
        if not isinstance(value, list):
            raise _invalid("a List takes its _value as an array")
        return [from_typed(x, depth + 1) for x in value]
    if kind == "Map":
        if not isinstance(value, dict):
            raise _invalid("a Map takes its _value as an object")
        return {k: from_typed(x, depth + 1) for k, x in value.items()}
    if kind in _TEMPORAL_KINDS:
        from ..temporal import build
        return build.from_text(_TEMPORAL_KINDS[kind], _text(kind, value))  # its own typed errors
    if kind == "Duration":
        from ..temporal.parse import duration
        return duration(_text(kind, value))
    if kind == "Point":
        return point_from_wkt(_text(kind, value))
    if kind in ("Node", "Relationship", "Path"):
        raise _invalid(f"a {kind} cannot be passed as a parameter")
    raise _invalid(f"unknown $type {kind!r}")
