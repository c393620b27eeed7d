"""`<kind>.truncate(unit, value[, map])`: a temporal value cut down to a unit, then adjusted.

Date units (`millennium` .. `day`) reset everything below them (the time of day included); time
units (`hour` .. `microsecond`) reset the smaller time fields.  The map's fields are then set on
the result like a selection; sub-second fields are added to what the cut left (truncating to
milliseconds and setting `nanosecond: 2` gives `.645000002`), and a `timezone` replaces the zone
while keeping the local fields.
"""
from __future__ import annotations

from ..errors import E
from .build import canon_fields, int_field, make, parts, resolve_date, resolve_time, zone_arg
from .calendar import ordinal_to_ymd, weekday, ymd_to_ordinal
from .values import NANOS_PER_DAY, NANOS_PER_SECOND, iso_week, week_start
from .zones import bad

_DATE_UNITS = ("millennium", "century", "decade", "year", "weekyear", "quarter", "month", "week",
               "day")
_TIME_UNITS = {"hour": 3600 * NANOS_PER_SECOND, "minute": 60 * NANOS_PER_SECOND,
               "second": NANOS_PER_SECOND, "millisecond": 1_000_000, "microsecond": 1000}


_YEARS_IN = {"millennium": 1000, "century": 100, "decade": 10}


def _toward_zero(year: int, years: int) -> int:
    """The year cut to a multiple of `years` toward zero, as the reference dialect cuts it
    (the millennium of -1500 is -1000, of 500 the year 0)."""
    return abs(year) // years * years * (1 if year >= 0 else -1)


def _truncate_date(unit: str, ordinal: int) -> int:
    """The first day of `unit` holding the day; never outside the supported range, whose first
    day (-999999999-01-01) is a Monday and starts week 1 of its week-based year."""
    year, month, _day = ordinal_to_ymd(ordinal)
    if unit in _YEARS_IN:
        return ymd_to_ordinal(_toward_zero(year, _YEARS_IN[unit]), 1, 1)
    if unit == "year":
        return ymd_to_ordinal(year, 1, 1)
    if unit == "weekyear":
        return week_start(iso_week(ordinal)[0])
    if unit == "quarter":
        return ymd_to_ordinal(year, (month - 1) // 3 * 3 + 1, 1)
    if unit == "month":
        return ymd_to_ordinal(year, month, 1)
    if unit == "week":
        return ordinal - weekday(ordinal) + 1
    return ordinal


def truncate(kind: str, unit: object, value: object, mapping: object = None) -> object:
    """`<kind>.truncate(unit, value, map)`: cut `value` down to `unit`, then set the map's fields.

    Sub-second fields of the map are added to what the cut left; a `timezone` replaces the zone
    and keeps the local fields."""
    if unit is None or value is None:
        return None
    if not isinstance(unit, str):
        raise E.Type.InvalidArgumentValue("the truncation unit must be a string")
    u = unit.lower()
    if u not in _DATE_UNITS and u not in _TIME_UNITS:
        raise bad(f"unknown truncation unit `{unit}`")
    if kind in ("localtime", "time") and u in _DATE_UNITS and u != "day":
        raise bad(f"cannot truncate a {kind} to `{unit}`")
    if kind == "date" and u in _TIME_UNITS:
        raise bad(f"cannot truncate a date to `{unit}`")
    p = parts(value)
    has_date = kind in ("date", "localdatetime", "datetime")
    if has_date and p.ordinal is None:
        raise bad(f"cannot truncate a value without a date to a {kind}")
    if not has_date and p.nanos is None:
        raise bad(f"cannot truncate a value without a time to a {kind}")
    ordinal = _truncate_date(u, p.ordinal) if p.ordinal is not None else None
    nanos = 0 if u in _DATE_UNITS else (p.nanos or 0) // _TIME_UNITS[u] * _TIME_UNITS[u]
    m = canon_fields(mapping) if mapping else {}
    if any(v is None for v in m.values()):
        return None
    extra = sum(int_field(k, m.pop(k)) * f for k, f in
                (("millisecond", 1_000_000), ("microsecond", 1000), ("nanosecond", 1)) if k in m)
    offset, zone = p.offset, p.zone
    if "timezone" in m:
        offset, zone = zone_arg(m.pop("timezone"))
    for key in ("date", "time", "datetime", "epochSeconds", "epochMillis"):
        if key in m:
            raise bad(f"`{key}` cannot be used with truncate")
    fields = {k: int_field(k, v) for k, v in m.items()}
    if has_date:
        ordinal = resolve_date(fields, ordinal)
    if kind != "date":
        nanos = resolve_time(fields, nanos) + extra
        if nanos >= NANOS_PER_DAY:
            raise bad("the sub-second fields run past the end of the day")
    return make(kind, ordinal, nanos, offset, zone)
