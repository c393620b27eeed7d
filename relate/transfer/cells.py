"""Property values <-> CSV cells in the typed columns of `neo4j-admin database import`.

`column_type(value)` names the header type a value needs (`long`, `double`, `string`,
`boolean`, `date` ... `duration`, `point`, an array `long[]`, or `byte[]` for a byte array), or
raises `Unrepresentable` saying why no column can hold it (a mixed list, an empty list, a lone
surrogate: a CSV file is UTF-8).  `cell(value, type, array_delimiter)` writes the cell's text
(before CSV quoting).  `reader(type, array_delimiter)` gives the function that turns a cell's text
back into the value; it raises `ValueError` with a short reason on text the type cannot read.

Numbers: integers in decimal (any 64-bit value), floats as Python's shortest repr (`NaN`,
`Infinity`, `-Infinity`, which Java's `Double.parseDouble` reads too).  Temporal values in their
ISO text (zone names in brackets), points as the map text the point function takes
(`{x: 1.0, y: 2.0, crs: 'cartesian'}`), byte arrays as signed bytes (Java's) split by the array
delimiter.  A list's elements follow the same rules, split by the array delimiter.
"""
from __future__ import annotations

import math
import re

from ..temporal import Date, DateTime, Duration, LocalDateTime, LocalTime, Point, Time, decode
from ..temporal.point import CRS_BY_NAME, from_map

_SCALAR = {bool: "boolean", int: "long", float: "double", str: "string", Date: "date",
           LocalTime: "localtime", Time: "time", LocalDateTime: "localdatetime", DateTime: "datetime",
           Duration: "duration", Point: "point"}
_SURROGATE = re.compile("[\ud800-\udfff]")


class Unrepresentable(Exception):
    """No CSV column can hold the value; the message says why."""


def scalar_type(value: object) -> str:
    """The header type of one scalar value (no list), or raises Unrepresentable."""
    name = _SCALAR.get(type(value))
    if name is None:
        raise Unrepresentable(f"a {type(value).__name__} value has no column type")
    if name == "string" and _SURROGATE.search(value):  # type: ignore[arg-type]
        raise Unrepresentable("the string holds a lone surrogate, which UTF-8 (the CSV files' encoding) "
                              "cannot carry; the Cypher script form can")
    return name


def column_type(value: object) -> str:
    if type(value) is bytes:
        return "byte[]"
    if type(value) is not list:
        return scalar_type(value)
    if not value:
        raise Unrepresentable("an empty list cannot be told from a missing property in a CSV cell "
                              "(neo4j-admin skips empty arrays); the Cypher script form can carry it")
    kinds = {scalar_type(v) for v in value}
    if len(kinds) > 1:
        raise Unrepresentable(f"a list mixing {' and '.join(sorted(kinds))} values is no array type")
    if value == [""]:
        raise Unrepresentable("a list holding one empty string reads back as no property in neo4j-admin")
    return kinds.pop() + "[]"


def _float_text(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return repr(x)


def _point_text(p: Point) -> str:
    names = ("longitude", "latitude", "height") if p.geographic else ("x", "y", "z")
    body = ", ".join(f"{n}: {_float_text(c)}" for n, c in zip(names, p.coords))
    return f"{{{body}, crs: '{p.crs}'}}"


def _scalar_text(value: object) -> str:
    t = type(value)
    if t is str:
        return value  # type: ignore[return-value]
    if t is bool:
        return "true" if value else "false"
    if t is int:
        return str(value)
    if t is float:
        return _float_text(value)  # type: ignore[arg-type]
    if t is Point:
        return _point_text(value)  # type: ignore[arg-type]
    return str(value)  # temporal values: their ISO text


def cell(value: object, type_: str, array_delimiter: str) -> str:
    if type_ == "byte[]":
        return array_delimiter.join(str(b - 256 if b > 127 else b) for b in value)  # type: ignore[attr-defined]
    if type_.endswith("[]"):
        return array_delimiter.join(_scalar_text(v) for v in value)  # type: ignore[attr-defined]
    return _scalar_text(value)


# ---------------------------------------------------------------- reading

def _boolean(text: str) -> bool:
    # neo4j-admin: exactly `true` is true, everything else false; relate refuses anything but the two
    if text == "true":
        return True
    if text == "false":
        return False
    raise ValueError(f"`{text}` is not a boolean (true or false)")


def _int(text: str) -> int:
    try:
        v = int(text.strip())
    except ValueError:
        raise ValueError(f"`{text}` is not an integer") from None
    if not -(1 << 63) <= v < (1 << 63):
        raise ValueError(f"`{text}` is outside the 64-bit integer range")
    return v


def _ranged(lo: int, hi: int, name: str):
    def read(text: str) -> int:
        v = _int(text)
        if not lo <= v <= hi:
            raise ValueError(f"`{text}` is outside the {name} range")
        return v
    return read


def _float(text: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise ValueError(f"`{text}` is not a number") from None


def _char(text: str) -> str:
    if len(text) != 1:
        raise ValueError(f"`{text}` is not one character")
    return text


_POINT_ENTRY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*:\s*('[^']*'|\"[^\"]*\"|[^,}]+?)\s*(?:,|$)")


def _point(text: str) -> Point:
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise ValueError(f"`{text}` is not a point map ({{x: 1.0, y: 2.0, crs: 'cartesian'}})")
    body = body[1:-1].strip()
    fields: dict[str, object] = {}
    pos = 0
    while pos < len(body):
        m = _POINT_ENTRY.match(body, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"`{text}` is not a point map")
        key, raw = m.group(1).lower(), m.group(2)
        if key == "crs":
            fields[key] = raw.strip("'\"").lower()
        else:
            try:
                fields[key] = float(raw) if key != "srid" else int(raw)
            except ValueError:
                raise ValueError(f"point field `{key}` is not a number in `{text}`") from None
        pos = m.end()
    if "crs" in fields and fields["crs"] not in CRS_BY_NAME:
        raise ValueError(f"unknown crs in `{text}`")
    try:
        p = from_map(fields)
    except Exception as e:  # the point function's own refusal (a typed error) says what is wrong
        raise ValueError(f"`{text}`: {getattr(e, 'detail', e)}") from None
    if p is None:
        raise ValueError(f"`{text}` is not a point map")
    return p


def _temporal(tag: str):
    def read(text: str) -> object:
        try:
            return decode(tag, text.strip())
        except Exception as e:  # a typed temporal error: its detail is the reason
            raise ValueError(f"`{text}` is not a {tag}: {getattr(e, 'detail', e)}") from None
    return read


def _string(text: str) -> str:
    return text


READERS = {
    "string": _string, "char": _char, "boolean": _boolean,
    "long": _int, "int": _ranged(-(1 << 31), (1 << 31) - 1, "int"),
    "short": _ranged(-(1 << 15), (1 << 15) - 1, "short"), "byte": _ranged(-128, 127, "byte"),
    "double": _float, "float": _float, "point": _point,
    **{tag: _temporal(tag) for tag in ("date", "localtime", "time", "localdatetime", "datetime", "duration")},
}


def reader(type_: str, array_delimiter: str):
    """The cell text -> value function of a header type (None: no such type)."""
    if type_ == "byte[]":
        one = READERS["byte"]
        return lambda text: bytes((one(t) & 0xFF) for t in text.split(array_delimiter))
    if type_.endswith("[]"):
        one = READERS.get(type_[:-2])
        if one is None:
            return None
        return lambda text: [one(t) for t in text.split(array_delimiter)]
    return READERS.get(type_)
