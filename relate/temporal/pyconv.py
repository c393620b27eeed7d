"""Python's `datetime` values <-> the temporal values, for the Python API's parameters and rows.

    datetime.date                       <-> Date
    datetime.datetime, naive            <-> LocalDateTime
    datetime.datetime, aware            <-> DateTime (a `zoneinfo.ZoneInfo` keeps its zone name,
                                            any other tzinfo becomes its fixed offset)
    datetime.time, naive                <-> LocalTime
    datetime.time, with a fixed offset  <-> Time
    datetime.timedelta                   -> Duration (which stays itself on the way back)

Python's values stop at microseconds: nanoseconds below that are dropped (toward the past) on
the way out, and they hold only the years 1 to 9999: a date outside them is a `UsageError` naming
the value.  Durations and points come back as the engine's own `Duration` and `Point`.
"""
from __future__ import annotations

import datetime as _dt
import zoneinfo
from typing import Any

from ..errors import CypherArgumentError, E
from .build import at_instant
from .duration import Duration
from .values import (EPOCH_ORDINAL, NANOS_PER_DAY, NANOS_PER_SECOND, Date, DateTime, LocalDateTime,
                     LocalTime, Time, to_py_date)
from .zones import MAX_OFFSET, region

_MICRO = 1000  # nanoseconds in a microsecond
CHANGED = frozenset((Date, LocalTime, Time, LocalDateTime, DateTime))  # what `to_python` converts


def _time_nanos(t: _dt.time | _dt.datetime) -> int:
    return ((t.hour * 60 + t.minute) * 60 + t.second) * NANOS_PER_SECOND + t.microsecond * _MICRO


def _offset(delta: _dt.timedelta, what: str) -> int:
    """A tzinfo's offset -> whole seconds east of UTC, within the range Cypher allows."""
    if delta.microseconds:
        raise E.Usage.Usage(f"{what}: a time zone offset with a fraction of a second ({delta})")
    seconds = delta.days * 86400 + delta.seconds
    if abs(seconds) > MAX_OFFSET:
        raise E.Usage.Usage(f"{what}: the time zone offset {delta} is outside -18:00 to +18:00")
    return seconds


def _zone_name(tz: _dt.tzinfo | None) -> str | None:
    """The IANA name of a `zoneinfo` zone relate knows, else None (a fixed offset is kept)."""
    if not isinstance(tz, zoneinfo.ZoneInfo) or not tz.key:
        return None
    try:
        region(tz.key)
    except Exception:  # a name the pinned zone data lacks: keep the instant, as an offset
        return None
    return tz.key


def from_python(v: object, what: str = "value") -> object:
    """A `datetime` module value -> the temporal value; anything else is returned as it is.
    `what` names the value in an error (`parameter $d`)."""
    if isinstance(v, _dt.datetime):
        ordinal, nanos = v.toordinal(), _time_nanos(v)
        delta = v.utcoffset()
        if delta is None:
            return LocalDateTime(ordinal, nanos)
        offset = _offset(delta, what)
        zone = _zone_name(v.tzinfo)
        if zone is None:
            return DateTime(ordinal, nanos, offset, None)
        # the same instant in the zone's rules as relate has them (the pinned tzdata), so that the
        # offset always agrees with the zone, whatever zone data Python's own ZoneInfo read
        epoch = (ordinal - EPOCH_ORDINAL) * NANOS_PER_DAY + nanos - offset * NANOS_PER_SECOND
        try:
            return at_instant(epoch, None, zone)
        except (OverflowError, ValueError, CypherArgumentError):  # at the edge of year 1 or 9999: the offset
            return DateTime(ordinal, nanos, offset, None)
    if isinstance(v, _dt.date):
        return Date(v.toordinal())
    if isinstance(v, _dt.time):
        delta = v.utcoffset()
        if delta is None:
            return LocalTime(_time_nanos(v))
        return Time(_time_nanos(v), _offset(delta, what))
    if isinstance(v, _dt.timedelta):
        return from_timedelta(v)
    return v


def from_timedelta(td: _dt.timedelta) -> Duration:
    """A timedelta -> days and a time part, both with the timedelta's sign (`-1 s` is `PT-1S`,
    not Python's `-1 day + 86399 s`)."""
    if td < _dt.timedelta(0):
        d = from_timedelta(-td)
        return Duration(0, -d.days, -d.nanos)
    return Duration(0, td.days, (td.seconds * 1_000_000 + td.microseconds) * _MICRO)


def _tz(offset: int) -> _dt.timezone:
    return _dt.timezone.utc if offset == 0 else _dt.timezone(_dt.timedelta(seconds=offset))


def _py_time(nanos: int, tz: _dt.tzinfo | None = None) -> _dt.time:
    secs, frac = divmod(nanos, NANOS_PER_SECOND)
    h, rest = divmod(secs, 3600)
    m, s = divmod(rest, 60)
    return _dt.time(h, m, s, frac // _MICRO, tzinfo=tz)


def to_python(v: Any) -> Any:
    """A temporal value -> the `datetime` module's value (microseconds; durations and points are
    returned as they are)."""
    t = type(v)
    if t is Date:
        return to_py_date(v.ordinal, v)
    if t is LocalDateTime:
        return _dt.datetime.combine(to_py_date(v.ordinal, v), _py_time(v.nanos))
    if t is DateTime:
        return _aware(v)
    if t is LocalTime:
        return _py_time(v.nanos)
    if t is Time:
        return _py_time(v.nanos, _tz(v.offset))
    return v


def _aware(v: DateTime) -> _dt.datetime:
    local = _dt.datetime.combine(to_py_date(v.ordinal, v), _py_time(v.nanos))
    if v.zone is None:
        return local.replace(tzinfo=_tz(v.offset))
    zone = region(v.zone)
    out = local.replace(tzinfo=zone)
    # in an overlap the same local time has two offsets: fold picks the later one
    delta = out.utcoffset()
    if delta is not None and int(delta.total_seconds()) != v.offset:
        out = out.replace(fold=1)
    return out


__all__ = ["CHANGED", "from_python", "from_timedelta", "to_python"]
