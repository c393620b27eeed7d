"""Field maps and text -> temporal values: construction, selection from other values, the clocks'
current values.

The five kinds (`date`, `localtime`, `time`, `localdatetime`, `datetime`) share one path: the
fields (from a Cypher map or from parsed text) are resolved against an optional base (a value
selected with the `date`, `time` or `datetime` key, or a truncated value), checked, and turned into
the kind's class.  A field the map leaves out comes from the base when the base has it, otherwise
from the calendar's start (month 1, day 1, midnight).  A value without a zone gets UTC.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import E
from . import parse
from .calendar import (MAX_YEAR, MIN_YEAR, day_of_year, month_length, ordinal_to_ymd,
                       weeks_in, year_length, ymd_to_ordinal)
from .clock import clock_ns
from .names import kind_name
from .values import (NANOS_PER_DAY, NANOS_PER_SECOND, EPOCH_ORDINAL, MAX_ORDINAL, MIN_ORDINAL,
                     YEARS_TEXT, Date, DateTime, LocalDateTime, LocalTime, Time, iso_week,
                     week_start)
from .zones import bad, offset_for_instant, offset_for_local, zone_of

KINDS = ("date", "localtime", "time", "localdatetime", "datetime")
_DATE_KEYS = {"year", "month", "day", "week", "dayofweek", "ordinalday", "quarter", "dayofquarter"}
_TIME_KEYS = {"hour", "minute", "second", "millisecond", "microsecond", "nanosecond"}
_SUBSECOND = ("millisecond", "microsecond", "nanosecond")
_CANON = {k.lower(): k for k in ("year", "month", "day", "week", "dayOfWeek", "ordinalDay",
                                 "quarter", "dayOfQuarter", "hour", "minute", "second",
                                 "millisecond", "microsecond", "nanosecond", "timezone", "date",
                                 "time", "datetime", "epochSeconds", "epochMillis")}
_SELECT_KEYS = {"date": {"date"}, "localtime": {"time"}, "time": {"time"},
                "localdatetime": {"date", "time", "datetime"},
                "datetime": {"date", "time", "datetime"}}


@dataclass(frozen=True, slots=True)
class Parts:
    """A temporal value taken apart: local date, local time of day, zone (any may be missing)."""

    ordinal: int | None
    nanos: int | None
    offset: int | None
    zone: str | None

    @property
    def zoned(self) -> bool:
        return self.offset is not None


def parts(v: object) -> Parts:
    if isinstance(v, Date):
        return Parts(v.ordinal, None, None, None)
    if isinstance(v, LocalTime):
        return Parts(None, v.nanos, None, None)
    if isinstance(v, Time):
        return Parts(None, v.nanos, v.offset, None)
    if isinstance(v, LocalDateTime):
        return Parts(v.ordinal, v.nanos, None, None)
    if isinstance(v, DateTime):
        return Parts(v.ordinal, v.nanos, v.offset, v.zone)
    raise E.Type.InvalidArgumentValue(f"expected a temporal value, got {kind_name(v)}")


def at_instant(epoch_nanos: int, offset: int | None, zone: str | None) -> DateTime:
    """An instant seen in a zone (region or fixed offset)."""
    if zone is not None:
        offset = offset_for_instant(zone, epoch_nanos // NANOS_PER_SECOND)
    local = epoch_nanos + (offset or 0) * NANOS_PER_SECOND
    days, nanos = divmod(local, NANOS_PER_DAY)
    ordinal = EPOCH_ORDINAL + days
    if not MIN_ORDINAL <= ordinal <= MAX_ORDINAL:
        raise bad(f"the instant is outside the supported years {YEARS_TEXT}")
    return DateTime(ordinal, nanos, offset or 0, zone)


def now(kind: str, clock: str, timezone: object = None) -> object:
    """The current value of a kind on a clock, in `timezone` (UTC when not given)."""
    offset, zone = zone_arg(timezone) if timezone is not None else (0, None)
    return convert(kind, at_instant(clock_ns(clock), offset, zone))


def zone_arg(value: object) -> tuple[int | None, str | None]:
    if not isinstance(value, str):
        raise E.Type.InvalidArgumentValue("a time zone must be a string")
    return zone_of(value)


# ---------------------------------------------------------------- resolution

def int_field(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise E.Type.InvalidArgumentValue(f"`{name}` must be an integer")
    return value


def _range(name: str, value: int, lo: int, hi: int) -> int:
    if not lo <= value <= hi:
        raise bad(f"`{name}` must be between {lo} and {hi}, got {value}")
    return value


def _year(year: int) -> int:
    return _range("year", year, MIN_YEAR, MAX_YEAR)


def _ymd(year: int, month: int, day: int) -> int:
    _year(year)
    _range("month", month, 1, 12)
    if not 1 <= day <= month_length(year, month):
        raise bad(f"invalid date: day {day} of month {month} in year {year}")
    return ymd_to_ordinal(year, month, day)


def _in_range(ordinal: int) -> int:
    """A day reached from fields that were each in range must still be a supported day (the last
    week of the week-based year 999999999 ends in the year after it)."""
    if not MIN_ORDINAL <= ordinal <= MAX_ORDINAL:
        raise bad(f"the date is outside the supported years {YEARS_TEXT}")
    return ordinal


def resolve_date(f: dict[str, int], base: int | None) -> int:
    """Date fields against a base day ordinal -> a day ordinal."""
    bd = ordinal_to_ymd(base) if base is not None else None
    if "year" not in f and bd is None:
        raise bad("a date needs at least a `year`")
    families = [k for k in (("week", "dayOfWeek"), ("ordinalDay",), ("quarter", "dayOfQuarter"),
                            ("month", "day")) if any(x in f for x in k)]
    if len(families) > 1:
        raise bad("cannot mix " + " and ".join(f"`{k[0]}`" for k in families) + " in one date")
    family = families[0] if families else ("month", "day")
    if family == ("week", "dayOfWeek"):
        by, bw, bdow = iso_week(base) if base is not None else (None, 1, 1)
        wy = _year(f.get("year", by))
        week = f.get("week", bw)
        dow = _range("dayOfWeek", f.get("dayOfWeek", bdow), 1, 7)
        _range("week", week, 1, weeks_in(wy))
        return _in_range(week_start(wy) + (week - 1) * 7 + dow - 1)
    year = _year(f.get("year", bd[0] if bd else 0))
    if family == ("ordinalDay",):
        day = f.get("ordinalDay", day_of_year(base) if bd else 1)
        return ymd_to_ordinal(year, 1, 1) + _range("ordinalDay", day, 1, year_length(year)) - 1
    if family == ("quarter", "dayOfQuarter"):
        bq = (bd[1] - 1) // 3 + 1 if bd else 1
        bdoq = base - ymd_to_ordinal(bd[0], bq * 3 - 2, 1) + 1 if bd else 1
        q = _range("quarter", f.get("quarter", bq), 1, 4)
        start = ymd_to_ordinal(year, q * 3 - 2, 1)
        end = ymd_to_ordinal(year + 1, 1, 1) if q == 4 else ymd_to_ordinal(year, q * 3 + 1, 1)
        return start + _range("dayOfQuarter", f.get("dayOfQuarter", bdoq), 1, end - start) - 1
    return _ymd(year, f.get("month", bd[1] if bd else 1), f.get("day", bd[2] if bd else 1))


def resolve_time(f: dict[str, int], base: int | None) -> int:
    """Time fields against a base time of day -> nanoseconds of day."""
    bsec, bnano = divmod(base or 0, NANOS_PER_SECOND)
    hour = _range("hour", f.get("hour", bsec // 3600), 0, 23)
    minute = _range("minute", f.get("minute", bsec // 60 % 60), 0, 59)
    second = _range("second", f.get("second", bsec % 60), 0, 59)
    if any(k in f for k in _SUBSECOND):
        ms = _range("millisecond", f.get("millisecond", 0), 0, 999)
        us = _range("microsecond", f.get("microsecond", 0), 0, 999_999)
        ns = _range("nanosecond", f.get("nanosecond", 0), 0, 999_999_999)
        nano = _range("nanosecond", ms * 1_000_000 + us * 1000 + ns, 0, 999_999_999)
    else:
        nano = bnano
    return ((hour * 60 + minute) * 60 + second) * NANOS_PER_SECOND + nano


def place(ordinal: int, nanos: int, offset: int | None, zone: str | None) -> DateTime:
    """Local date and time in a zone -> DateTime (a region zone fixes the offset)."""
    if zone is None:
        return DateTime(ordinal, nanos, offset or 0, None)
    off, shift = offset_for_local(zone, ordinal, nanos // NANOS_PER_SECOND)
    if shift:
        days, nanos = divmod(nanos + shift * NANOS_PER_SECOND, NANOS_PER_DAY)
        ordinal += days
    return DateTime(ordinal, nanos, off, zone)


def prefer_offset(value: DateTime, offset: int | None) -> DateTime:
    """In an overlap keep the offset the text named, when it is one of the two valid ones."""
    if offset is None or value.zone is None or offset == value.offset:
        return value
    other = DateTime(value.ordinal, value.nanos, offset, value.zone)
    if at_instant(other.epoch_nanos(), None, value.zone) == other:
        return other
    return value


def make(kind: str, ordinal: int | None, nanos: int | None, offset: int | None,
         zone: str | None) -> object:
    """Resolved parts -> a value of `kind` (missing time is midnight, missing zone is UTC)."""
    if kind == "date":
        return Date(ordinal)
    if kind == "localtime":
        return LocalTime(nanos or 0)
    if kind == "localdatetime":
        return LocalDateTime(ordinal, nanos or 0)
    if kind == "time":
        if zone is not None and offset is None:
            offset = offset_for_instant(zone, clock_ns("statement") // NANOS_PER_SECOND)
        return Time(nanos or 0, offset or 0)
    return place(ordinal, nanos or 0, offset, zone)


def convert(kind: str, value: object) -> object:
    """Select the parts of `value` that `kind` has (`date(datetime(...))` and friends)."""
    p = parts(value)
    if kind in ("date", "localdatetime", "datetime") and p.ordinal is None:
        raise bad(f"cannot make a {kind} from a value without a date")
    if kind in ("localtime", "time") and p.nanos is None:
        raise bad(f"cannot make a {kind} from a value without a time")
    if kind == "datetime" and p.zone is not None:
        return DateTime(p.ordinal, p.nanos or 0, p.offset, p.zone)
    return make(kind, p.ordinal, p.nanos, p.offset, p.zone)


def canon_fields(mapping: dict) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in mapping.items():
        name = _CANON.get(key.lower())
        if name is None:
            raise bad(f"unknown temporal field `{key}`")
        out[name] = value
    return out


def from_map(kind: str, mapping: dict) -> object:
    """`date({year: 1984, week: 10})`, `datetime({date: d, time: t, timezone: 'Europe/Oslo'})`..."""
    m = canon_fields(mapping)
    if any(v is None for v in m.values()):
        return None
    for key in ("date", "time", "datetime"):
        if key in m and key not in _SELECT_KEYS[kind]:
            raise bad(f"`{key}` cannot be selected into a {kind}")
    if kind == "datetime" and ("epochSeconds" in m or "epochMillis" in m):
        return _from_epoch_map(m)
    if not (set(m) - {"timezone"}):
        return now(kind, "statement", m.get("timezone"))
    ordinal = nanos = offset = zone = None
    source = m.get("datetime") or m.get("time")
    if "datetime" in m:
        p = parts(m["datetime"])
        ordinal, nanos = p.ordinal, p.nanos
    tz = zone_arg(m["timezone"]) if "timezone" in m else None
    # a date time takes its fields on the source's clock first and then moves to `timezone`, so a
    # region zone's offset is the one on the new date (as Neo4j resolves it), not the source's
    move_after = kind == "datetime" and tz is not None and source is not None and parts(source).zoned
    if source is not None:
        p = parts(source)
        if p.zoned and tz is not None and kind == "time":
            source = _in_zone(source, p, tz)
            p = parts(source)
        offset, zone = p.offset, p.zone
        if p.nanos is not None:
            nanos = p.nanos
        if "datetime" in m and p.ordinal is not None:
            ordinal = p.ordinal
    if "date" in m:
        p = parts(m["date"])
        if p.ordinal is None:
            raise bad("the `date` value has no date")
        ordinal = p.ordinal
    if tz is not None and not move_after:
        offset, zone = tz
    fields = {k: int_field(k, v) for k, v in m.items() if k.lower() in _DATE_KEYS | _TIME_KEYS}
    value = _resolve(kind, fields, ordinal, nanos, offset, zone)
    if move_after and isinstance(value, DateTime) and tz is not None:
        return at_instant(value.epoch_nanos(), *tz)
    return value


def _in_zone(value: object, p: Parts, tz: tuple[int | None, str | None]) -> object:
    """The same instant (or, for a time, the same moment of the UTC day) in another zone."""
    offset, zone = tz
    if isinstance(value, DateTime):
        return at_instant(value.epoch_nanos(), offset, zone)
    if offset is None:
        offset = offset_for_instant(zone, clock_ns("statement") // NANOS_PER_SECOND)
    return Time((p.nanos - (p.offset - offset) * NANOS_PER_SECOND) % NANOS_PER_DAY, offset)


def _resolve(kind: str, fields: dict[str, int], ordinal: int | None, nanos: int | None,
             offset: int | None, zone: str | None) -> object:
    has_date = kind in ("date", "localdatetime", "datetime")
    has_time = kind != "date"
    if not has_date and fields.keys() & _DATE_KEYS_CANON:
        raise bad(f"a {kind} has no date fields")
    if not has_time and fields.keys() & _TIME_KEYS_CANON:
        raise bad("a date has no time fields")
    if has_date:
        ordinal = resolve_date(fields, ordinal)
    if has_time:
        nanos = resolve_time(fields, nanos)
    return make(kind, ordinal, nanos, offset, zone)


_DATE_KEYS_CANON = {_CANON[k] for k in _DATE_KEYS}
_TIME_KEYS_CANON = {_CANON[k] for k in _TIME_KEYS}


def _from_epoch_map(m: dict) -> DateTime:
    extra = sum(int_field(k, m.get(k, 0)) * f for k, f in
                (("millisecond", 1_000_000), ("microsecond", 1000), ("nanosecond", 1)))
    if "epochSeconds" in m:
        total = int_field("epochSeconds", m["epochSeconds"]) * NANOS_PER_SECOND
    else:
        total = int_field("epochMillis", m["epochMillis"]) * 1_000_000
    offset, zone = zone_arg(m["timezone"]) if "timezone" in m else (0, None)
    return at_instant(total + extra, offset, zone)


def from_epoch(seconds: object, nanos: object = 0) -> DateTime:
    return at_instant(int_field("seconds", seconds) * NANOS_PER_SECOND
                      + int_field("nanoseconds", nanos), 0, None)


def from_epoch_millis(millis: object) -> DateTime:
    return at_instant(int_field("milliseconds", millis) * 1_000_000, 0, None)


def from_text(kind: str, text: str) -> object:
    """ISO 8601 text -> a value of `kind`."""
    text = text.strip()
    if kind == "date":
        return make(kind, resolve_date(parse.date_fields(text), None), None, None, None)
    if kind in ("localtime", "time"):
        rest, zp = parse.split_zone(text)
        nanos = resolve_time(parse.time_fields(rest), None)
        if kind == "localtime":
            if zp is not None:
                raise bad(f"a local time has no zone: `{text}`")
            return LocalTime(nanos)
        return make(kind, None, nanos, zp.offset if zp else 0, zp.region if zp else None)
    df, tf, zp = parse.datetime_fields(text)
    ordinal = resolve_date(df, None)
    nanos = resolve_time(tf, None)
    if kind == "localdatetime":
        if zp is not None:
            raise bad(f"a local date time has no zone: `{text}`")
        return LocalDateTime(ordinal, nanos)
    if zp is None:
        return DateTime(ordinal, nanos, 0, None)
    value = make(kind, ordinal, nanos, zp.offset, zp.region)
    return prefer_offset(value, zp.offset)
