"""The Cypher functions of temporal and spatial values: lower-cased name -> (function, min args,
max args), the shape of the engine's function table, so registering them is one `update`.

`date(x)` and its four siblings take nothing (now), a string (ISO 8601), a map (fields and
selection) or another temporal value (conversion); `<kind>.transaction|statement|realtime([tz])`
read a clock; `<kind>.truncate(unit, value[, map])` cuts a value down.  Null in gives null out.
"""
from __future__ import annotations

from ..errors import CypherTypeError, E
from . import build, ops, parse, point, truncate
from .duration import Duration, from_amounts
from .names import kind_name
from .values import TEMPORAL_TYPES
from .zones import bad

_DURATION_KEYS = {k.lower(): k for k in ("years", "quarters", "months", "weeks", "days", "hours",
                                         "minutes", "seconds", "milliseconds", "microseconds",
                                         "nanoseconds")}


def _type_err(fn: str, v: object) -> CypherTypeError:
    return E.Type.InvalidArgumentValue(fn=fn, type=kind_name(v))


def _constructor(kind: str):
    absent = object()

    def construct(arg=absent):
        if arg is absent:
            return build.now(kind, "statement")
        if arg is None:
            return None
        if isinstance(arg, str):
            return build.from_text(kind, arg)
        if isinstance(arg, dict):
            return build.from_map(kind, arg)
        if isinstance(arg, TEMPORAL_TYPES):
            return build.convert(kind, arg)
        raise _type_err(kind, arg)
    construct.__name__ = kind
    return construct


def _clock(kind: str, clock: str):
    absent = object()

    def read(tz=absent):
        if tz is absent:
            return build.now(kind, clock)
        if tz is None:
            return None
        return build.now(kind, clock, tz)
    read.__name__ = f"{kind}.{clock}"
    return read


def _truncate(kind: str):
    def cut(unit, value, mapping=None):
        if mapping is not None and not isinstance(mapping, dict):
            raise _type_err(f"{kind}.truncate", mapping)
        if value is not None and not isinstance(value, TEMPORAL_TYPES):
            raise _type_err(f"{kind}.truncate", value)
        return truncate.truncate(kind, unit, value, mapping)
    cut.__name__ = f"{kind}.truncate"
    return cut


def duration(arg):
    """`duration('P1Y')`, `duration({days: 1.5})`."""
    if arg is None:
        return None
    if isinstance(arg, Duration):
        return arg
    if isinstance(arg, str):
        return parse.duration(arg.strip())
    if isinstance(arg, dict):
        amounts = {}
        for key, value in arg.items():
            name = _DURATION_KEYS.get(key.lower())
            if name is None:
                raise bad(f"unknown duration field `{key}`")
            if value is None:
                return None
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise E.Type.InvalidArgumentValue(f"duration field `{key}` must be a number")
            amounts[name] = value
        return from_amounts(**amounts)
    raise _type_err("duration", arg)


def _between(unit: str | None):
    def diff(a, b):
        if a is None or b is None:
            return None
        for v in (a, b):
            if not isinstance(v, TEMPORAL_TYPES):
                raise _type_err("duration.between", v)
        return ops.between(a, b, unit)
    return diff


def _point(arg):
    if arg is None:
        return None
    if not isinstance(arg, dict):
        raise _type_err("point", arg)
    return point.from_map(arg)


def _points(name: str, f):
    def g(*args):
        for v in args:
            if v is not None and not isinstance(v, point.Point):
                raise _type_err(name, v)
        return f(*args)
    return g


def _fromepoch(seconds, nanos=0):
    if seconds is None or nanos is None:
        return None
    return build.from_epoch(seconds, nanos)


def _fromepochmillis(millis):
    return None if millis is None else build.from_epoch_millis(millis)


FUNCTIONS: dict[str, tuple] = {
    "duration": (duration, 1, 1),
    "duration.between": (_between(None), 2, 2),
    "duration.inmonths": (_between("months"), 2, 2),
    "duration.indays": (_between("days"), 2, 2),
    "duration.inseconds": (_between("seconds"), 2, 2),
    "datetime.fromepoch": (_fromepoch, 1, 2),
    "datetime.fromepochmillis": (_fromepochmillis, 1, 1),
    "point": (_point, 1, 1),
    "point.distance": (_points("point.distance", point.distance), 2, 2),
    "distance": (_points("distance", point.distance), 2, 2),
    "point.withinbbox": (_points("point.withinBBox", point.within_bbox), 3, 3),
}
for _kind in build.KINDS:
    FUNCTIONS[_kind] = (_constructor(_kind), 0, 1)
    FUNCTIONS[f"{_kind}.truncate"] = (_truncate(_kind), 2, 3)
    for _clock_name in ("transaction", "statement", "realtime"):
        FUNCTIONS[f"{_kind}.{_clock_name}"] = (_clock(_kind, _clock_name), 0, 1)
