"""Property values -> Cypher expression text that Neo4j 5 and relate both read back exactly.

Strings in double quotes with escapes for the quote, the backslash, control characters and lone
surrogates (`\\ud800`: a UTF-8 file cannot hold one, an escape can).  Integers in decimal (the
full 64-bit range), floats as their shortest repr with no `+` in the exponent (Cypher's grammar
has none); NaN and the infinities have no literal, so they are the divisions that make them
(`0.0/0.0`, `1.0/0.0`, `-1.0/0.0`), which Neo4j and relate evaluate the same way.  Temporal
values through their constructor on the ISO text (`datetime('...[Europe/Berlin]')`), points as
`point({...})`.  Lists mixing value types are refused (Neo4j stores only homogeneous arrays), and
byte arrays too: Cypher has no way to write one.
"""
from __future__ import annotations

import math
import re

from ..temporal import Point, encode, is_value
from .cells import Unrepresentable

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_NEEDS = re.compile('[\\\\"\x00-\x1f\x7f\ud800-\udfff]')


_SURROGATE = re.compile("[\ud800-\udfff]")


def _esc(m: re.Match[str]) -> str:
    c = m.group()
    return _ESCAPES.get(c) or f"\\u{ord(c):04x}"


def string(text: str) -> str:
    return '"' + _NEEDS.sub(_esc, text) + '"'


def name(text: str) -> str:
    """A label, type or key, always back-quoted (a doubled backtick escapes one)."""
    if _SURROGATE.search(text):  # inside backquotes there are no escapes
        raise Unrepresentable("the name holds a lone surrogate, which a UTF-8 script cannot carry")
    return "`" + text.replace("`", "``") + "`"


def number(x: float) -> str:
    if math.isnan(x):
        return "0.0/0.0"
    if math.isinf(x):
        return "1.0/0.0" if x > 0 else "-1.0/0.0"
    return repr(x).replace("e+", "e")


def _point(p: Point) -> str:
    names = ("longitude", "latitude", "height") if p.geographic else ("x", "y", "z")
    return "point({" + ", ".join(f"{n}: {number(c)}" for n, c in zip(names, p.coords)) + f", crs: '{p.crs}'}})"


def _kind(v: object) -> str:
    return "temporal:" + encode(v)[0] if is_value(v) else type(v).__name__


def value(v: object) -> str:
    t = type(v)
    if t is str:
        return string(v)  # type: ignore[arg-type]
    if t is bool:
        return "true" if v else "false"
    if t is int:
        return str(v)
    if t is float:
        return number(v)  # type: ignore[arg-type]
    if t is list:
        kinds = {_kind(x) for x in v}  # type: ignore[attr-defined]
        if len(kinds) > 1:
            raise Unrepresentable("a list mixing value types: Neo4j stores only lists of one type")
        return "[" + ", ".join(value(x) for x in v) + "]"  # type: ignore[attr-defined]
    if t is Point:
        return _point(v)  # type: ignore[arg-type]
    if t is bytes:
        raise Unrepresentable("a byte array: Cypher has no literal for one (the CSV form carries it as byte[])")
    if is_value(v):
        tag, text = encode(v)
        return f"{tag}({string(text)})"  # type: ignore[arg-type]
    raise Unrepresentable(f"a {t.__name__} value")


def props(items, first: tuple[str, object] | None = None) -> str:
    """A map literal of `items` (key, value) pairs, `first` ahead of them."""
    parts = [f"{name(first[0])}: {value(first[1])}"] if first else []
    parts += [f"{name(k)}: {value(v)}" for k, v in items]
    return "{" + ", ".join(parts) + "}"
