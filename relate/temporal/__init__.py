"""Temporal and spatial Cypher values: date, localtime, time, localdatetime, datetime, duration,
point.

The rest of relate reaches them through this module:

- `is_value(v)` -> whether `v` is one of these values;
- `render(v)` -> ISO 8601 text (points: `point({x: 1.0, y: 2.0, crs: 'cartesian'})`);
- `type_name(v)` -> the `columnTypes` name (`DATE`, `TIME`, `DATETIME`, `DURATION`, `POINT`);
- `equals`, `compare`, `order_key` -> Cypher equality and order;
- `component(v, name)` -> `v.year`, `p.x`, ...;
- `add`, `subtract`, `multiply`, `divide`, `negate` -> arithmetic with durations;
- `encode(v)` / `decode(tag, data)` -> a (tag, JSON data) pair for the stores, zone names kept;
  `STORE_CODECS` lists them per class in the shape `storage.frames.register` takes;
- `FUNCTIONS` -> the function table entries (`date()`, `duration.between()`, `point()`, ...).
"""
from __future__ import annotations

from ..errors import E
from . import build, duration as _duration, ops, parse, point as _point
from .clock import pinned_clock
from .duration import Duration
from .functions import FUNCTIONS
from .point import Point
from .values import TEMPORAL_TYPES, Date, DateTime, LocalDateTime, LocalTime, Time

VALUE_TYPES = TEMPORAL_TYPES + (Duration, Point)

_TYPE_NAMES = {Date: "DATE", LocalTime: "TIME", Time: "TIME", LocalDateTime: "DATETIME",
               DateTime: "DATETIME", Duration: "DURATION", Point: "POINT"}
_TAGS = {Date: "date", LocalTime: "localtime", Time: "time", LocalDateTime: "localdatetime",
         DateTime: "datetime", Duration: "duration", Point: "point"}

__all__ = ["Date", "LocalTime", "Time", "LocalDateTime", "DateTime", "Duration", "Point",
           "VALUE_TYPES", "FUNCTIONS", "is_value", "render", "type_name", "equals", "compare",
           "order_key", "component", "add", "subtract", "multiply", "divide", "negate", "encode",
           "decode", "pinned_clock", "STORE_CODECS"]


def is_value(v: object) -> bool:
    return isinstance(v, VALUE_TYPES)


def render(v: object) -> str:
    return str(v)


def type_name(v: object) -> str:
    return _TYPE_NAMES[type(v)]


def equals(a: object, b: object) -> bool:
    """Same kind and same value (a duration equals another with the same months, days and time;
    date times must agree on instant and zone)."""
    return type(a) is type(b) and a == b


def compare(a: object, b: object) -> int | None:
    if isinstance(a, Point) or isinstance(b, Point):
        return None
    return ops.compare(a, b)


# Sub-ranks in the global order: points come before the temporal kinds.
def order_key(v: object) -> tuple:
    if isinstance(v, Point):
        return (0,) + _point.order_key(v)
    return (1,) + ops.order_key(v)


def component(v: object, name: str) -> object:
    if isinstance(v, Point):
        return _point.component(v, name)
    return ops.component(v, name)


def add(a: object, b: object) -> object:
    """`a + b` where at least one side is a duration (either order for temporal + duration)."""
    if isinstance(a, Duration) and isinstance(b, Duration):
        return _duration.add(a, b)
    if isinstance(b, Duration) and isinstance(a, TEMPORAL_TYPES):
        return ops.add(a, b)
    if isinstance(a, Duration) and isinstance(b, TEMPORAL_TYPES):
        return ops.add(b, a)
    return NotImplemented


def subtract(a: object, b: object) -> object:
    if isinstance(a, Duration) and isinstance(b, Duration):
        return _duration.sub(a, b)
    if isinstance(b, Duration) and isinstance(a, TEMPORAL_TYPES):
        return ops.subtract(a, b)
    return NotImplemented


def multiply(a: object, b: object) -> object:
    if isinstance(a, Duration) and _is_num(b):
        return _duration.scale(a, b)
    if isinstance(b, Duration) and _is_num(a):
        return _duration.scale(b, a)
    return NotImplemented


def divide(a: object, b: object) -> object:
    if isinstance(a, Duration) and _is_num(b):
        if b == 0:
            raise E.Arithmetic.DivisionByZero("cannot divide a duration by zero")
        return _duration.divide(a, b)
    return NotImplemented


def negate(a: object) -> object:
    if isinstance(a, Duration):
        return _duration.neg(a)
    return NotImplemented


def _is_num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def encode(v: object) -> tuple[str, object]:
    """A value -> (tag, JSON data) for a store: the ISO 8601 text, or for a point
    `[srid, x, y(, z)]`; `decode` reverses it exactly."""
    if isinstance(v, Point):
        return "point", [v.srid, *v.coords]
    return _TAGS[type(v)], str(v)


def decode(tag: str, data: object) -> object:
    if tag == "point":
        srid, *coords = data
        return Point(int(srid), tuple(float(c) for c in coords))
    if tag == "duration":
        return parse.duration(data)
    return build.from_text(tag, data)


def _codec(cls: type) -> tuple:
    tag = _TAGS[cls]
    return cls, tag, (lambda v: encode(v)[1]), (lambda data, tag=tag: decode(tag, data))


# (class, tag, value -> JSON data, JSON data -> value) for each value type.
STORE_CODECS = tuple(_codec(cls) for cls in VALUE_TYPES)
