"""Operations on temporal values: components, arithmetic with durations, differences, order.

- `component(v, name)` -> the value of `v.year`, `v.offsetMinutes`, `d.monthsOfYear`, ...
- `add(v, d)` / `subtract(v, d)` -> a temporal moved by a duration (months, then days, then time);
- `between(a, b, unit)` -> the duration from `a` to `b` (`duration.between`, `inMonths`, ...);
- `compare(a, b)` -> -1, 0, 1 or None; `order_key(v)` -> a sortable tuple.
"""
from __future__ import annotations

from .build import at_instant, parts, place, prefer_offset
from .calendar import (MAX_YEAR, MIN_YEAR, day_of_year, month_length, ordinal_to_ymd, weekday,
                       ymd_to_ordinal)
from .names import kind_name
from .duration import Duration
from .values import (MAX_ORDINAL, MIN_ORDINAL, NANOS_PER_DAY, NANOS_PER_SECOND, YEARS_TEXT, Date,
                     DateTime, LocalDateTime, LocalTime, Time, iso_week)
from .zones import bad, render_offset

# ---------------------------------------------------------------- components


def _date_component(ordinal: int, name: str):
    year, month, day = ordinal_to_ymd(ordinal)
    if name == "year":
        return year
    if name == "quarter":
        return (month - 1) // 3 + 1
    if name == "month":
        return month
    if name == "week":
        return iso_week(ordinal)[1]
    if name == "weekyear":
        return iso_week(ordinal)[0]
    if name == "day":
        return day
    if name == "ordinalday":
        return day_of_year(ordinal)
    if name in ("weekday", "dayofweek"):
        return weekday(ordinal)
    if name == "dayofquarter":
        return ordinal - ymd_to_ordinal(year, (month - 1) // 3 * 3 + 1, 1) + 1
    return _MISSING


def _time_component(nanos: int, name: str):
    secs, frac = divmod(nanos, NANOS_PER_SECOND)
    if name == "hour":
        return secs // 3600
    if name == "minute":
        return secs // 60 % 60
    if name == "second":
        return secs % 60
    if name == "millisecond":
        return frac // 1_000_000
    if name == "microsecond":
        return frac // 1000
    if name == "nanosecond":
        return frac
    return _MISSING


def _zone_component(offset: int, zone: str | None, name: str):
    if name == "timezone":
        return zone if zone is not None else render_offset(offset)
    if name == "offset":
        return render_offset(offset)
    if name == "offsetminutes":
        return offset // 60
    if name == "offsetseconds":
        return offset
    return _MISSING


def _tdiv(a: int, b: int) -> int:
    """Integer division truncating toward zero."""
    q = abs(a) // b
    return q if a >= 0 else -q


def _tmod(a: int, b: int) -> int:
    return a - _tdiv(a, b) * b


_DURATION_COMPONENTS = {
    "years": lambda d: _tdiv(d.months, 12), "quarters": lambda d: _tdiv(d.months, 3),
    "months": lambda d: d.months, "weeks": lambda d: _tdiv(d.days, 7), "days": lambda d: d.days,
    "hours": lambda d: _tdiv(d.seconds, 3600), "minutes": lambda d: _tdiv(d.seconds, 60),
    "seconds": lambda d: d.seconds,
    "milliseconds": lambda d: d.seconds * 1000 + d.nano_of_second // 1_000_000,
    "microseconds": lambda d: d.seconds * 1_000_000 + d.nano_of_second // 1000,
    "nanoseconds": lambda d: d.nanos,
    "quartersofyear": lambda d: _tdiv(_tmod(d.months, 12), 3),
    "monthsofquarter": lambda d: _tmod(d.months, 3), "monthsofyear": lambda d: _tmod(d.months, 12),
    "daysofweek": lambda d: _tmod(d.days, 7),
    "minutesofhour": lambda d: _tmod(_tdiv(d.seconds, 60), 60),
    "secondsofminute": lambda d: _tmod(d.seconds, 60),
    "millisecondsofsecond": lambda d: d.nano_of_second // 1_000_000,
    "microsecondsofsecond": lambda d: d.nano_of_second // 1000,
    "nanosecondsofsecond": lambda d: d.nano_of_second,
}


def _duration_component(d: Duration, name: str):
    # whole seconds round down and the nanosecond part is never negative, as in the reference
    f = _DURATION_COMPONENTS.get(name)
    return f(d) if f else _MISSING


_MISSING = object()


def component(value: object, name: str) -> object:
    """`value.name` for a temporal value or a duration; an unknown name is an error."""
    key = name.lower()
    out = _MISSING
    if isinstance(value, Duration):
        out = _duration_component(value, key)
    else:
        p = parts(value)
        if p.ordinal is not None:
            out = _date_component(p.ordinal, key)
        if out is _MISSING and p.nanos is not None:
            out = _time_component(p.nanos, key)
        if out is _MISSING and p.offset is not None:
            out = _zone_component(p.offset, p.zone, key)
        if out is _MISSING and isinstance(value, DateTime):
            if key == "epochseconds":
                out = value.epoch_nanos() // NANOS_PER_SECOND
            elif key == "epochmillis":
                out = value.epoch_nanos() // 1_000_000
    if out is _MISSING:
        raise bad(f"a {kind_name(value)} has no component `{name}`")
    return out


# ---------------------------------------------------------------- arithmetic


def plus_months(ordinal: int, months: int) -> int:
    """Move a date by whole months, clamping the day to the target month's length."""
    if not months:
        return ordinal
    y, m, d = ordinal_to_ymd(ordinal)
    year, month = divmod(y * 12 + m - 1 + months, 12)
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise bad(f"the date moved outside the supported years {YEARS_TEXT}")
    return ymd_to_ordinal(year, month + 1, min(d, month_length(year, month + 1)))


def _checked(ordinal: int) -> int:
    if not MIN_ORDINAL <= ordinal <= MAX_ORDINAL:
        raise bad(f"the date moved outside the supported years {YEARS_TEXT}")
    return ordinal


def add(value: object, d: Duration) -> object:
    """A temporal value moved forward by a duration: months, then days, then the time part.

    A date takes only the whole days of the time part; a time of day wraps around midnight; a
    date time in a region zone moves months and days on its local clock and the time part on
    the timeline."""
    if isinstance(value, Date):
        days = d.days + _tdiv(d.nanos, NANOS_PER_DAY)
        return Date(_checked(plus_months(value.ordinal, d.months) + days))
    if isinstance(value, LocalTime):
        return LocalTime((value.nanos + d.nanos) % NANOS_PER_DAY)
    if isinstance(value, Time):
        return Time((value.nanos + d.nanos) % NANOS_PER_DAY, value.offset)
    if isinstance(value, LocalDateTime):
        ordinal = plus_months(value.ordinal, d.months) + d.days
        carry, nanos = divmod(value.nanos + d.nanos, NANOS_PER_DAY)
        return LocalDateTime(_checked(ordinal + carry), nanos)
    if isinstance(value, DateTime):
        ordinal = _checked(plus_months(value.ordinal, d.months) + d.days)
        if value.zone is None:
            carry, nanos = divmod(value.nanos + d.nanos, NANOS_PER_DAY)
            return DateTime(_checked(ordinal + carry), nanos, value.offset, None)
        # like java.time: in an overlap the moved value keeps its offset when it can
        moved = prefer_offset(place(ordinal, value.nanos, None, value.zone), value.offset)
        if not d.nanos:
            return moved
        return at_instant(moved.epoch_nanos() + d.nanos, None, value.zone)
    raise bad(f"cannot add a duration to {kind_name(value)}")


def subtract(value: object, d: Duration) -> object:
    return add(value, Duration(-d.months, -d.days, -d.nanos))


# ---------------------------------------------------------------- differences


def _months_until(a: int, b: int) -> int:
    ya, ma, da = ordinal_to_ymd(a)
    yb, mb, db = ordinal_to_ymd(b)
    pa = (ya * 12 + ma - 1) * 32 + da
    pb = (yb * 12 + mb - 1) * 32 + db
    return _tdiv(pb - pa, 32)


def _adjusted_end(a_ord: int, a_ns: int, b_ord: int, b_ns: int) -> int:
    """The end date a whole-unit count should use: a day less when the end's clock is earlier."""
    if b_ord > a_ord and b_ns < a_ns:
        return b_ord - 1
    if b_ord < a_ord and b_ns > a_ns:
        return b_ord + 1
    return b_ord


def _aligned(a: object, b: object):
    """Both values as (ordinal | None, nanos, ordinal | None, nanos), `b` moved into `a`'s zone
    when both have zones, so that local fields can be compared."""
    pa, pb = parts(a), parts(b)
    b_ord, b_ns = pb.ordinal, pb.nanos or 0
    if pa.zoned and pb.zoned:
        if isinstance(b, DateTime) and pa.ordinal is not None:
            moved = at_instant(b.epoch_nanos(), pa.offset if pa.zone is None else None, pa.zone)
            b_ord, b_ns = moved.ordinal, moved.nanos
        else:
            shift = (pa.offset - pb.offset) * NANOS_PER_SECOND
            if b_ord is None or pa.ordinal is None:
                b_ns = b_ns + shift
            else:
                carry, b_ns = divmod(b_ns + shift, NANOS_PER_DAY)
                b_ord += carry
    return pa.ordinal, pa.nanos or 0, b_ord, b_ns


def _in_zone_of(local: object, zoned: DateTime) -> object:
    """A value without a zone read on `zoned`'s clock: a date takes midnight, a time of day takes
    `zoned`'s date, and the local fields get the offset `zoned`'s zone has there (as Neo4j
    attaches the zone before measuring, so a daylight-saving change between them counts)."""
    p = parts(local)
    ordinal = p.ordinal if p.ordinal is not None else zoned.ordinal
    return place(ordinal, p.nanos or 0, zoned.offset, zoned.zone)


def between(a: object, b: object, unit: str | None = None) -> Duration | None:
    """The duration from `a` to `b`: in months, days and time (`unit` None), or only in
    `months`, `days` or `seconds` (`inMonths`, `inDays`, `inSeconds`)."""
    if a is None or b is None:
        return None
    if isinstance(a, DateTime) and isinstance(b, (Date, LocalDateTime, LocalTime)):
        if not isinstance(b, LocalTime) or unit in (None, "seconds"):
            b_read = _in_zone_of(b, a)
            if isinstance(b, LocalTime):  # no date: only the time on the timeline counts
                return Duration(0, 0, b_read.epoch_nanos() - a.epoch_nanos())
            b = b_read
    elif isinstance(b, DateTime) and isinstance(a, (Date, LocalDateTime, LocalTime)):
        if not isinstance(a, LocalTime) or unit in (None, "seconds"):
            a_read = _in_zone_of(a, b)
            if isinstance(a, LocalTime):
                return Duration(0, 0, b.epoch_nanos() - a_read.epoch_nanos())
            a = a_read
    a_ord, a_ns, b_ord, b_ns = _aligned(a, b)
    dated = a_ord is not None and b_ord is not None
    if unit == "months":
        if not dated:
            return Duration(0, 0, 0)
        return Duration(_months_until(a_ord, _adjusted_end(a_ord, a_ns, b_ord, b_ns)), 0, 0)
    if unit == "days":
        if not dated:
            return Duration(0, 0, 0)
        return Duration(0, _adjusted_end(a_ord, a_ns, b_ord, b_ns) - a_ord, 0)
    timeline = isinstance(a, DateTime) and isinstance(b, DateTime)
    if unit == "seconds":
        if timeline:
            return Duration(0, 0, b.epoch_nanos() - a.epoch_nanos())
        if not dated:
            return Duration(0, 0, b_ns - a_ns)
        return Duration(0, 0, (b_ord - a_ord) * NANOS_PER_DAY + b_ns - a_ns)
    if not dated:
        return Duration(0, 0, b_ns - a_ns)
    months = _months_until(a_ord, _adjusted_end(a_ord, a_ns, b_ord, b_ns))
    start = plus_months(a_ord, months)
    days = _adjusted_end(start, a_ns, b_ord, b_ns) - start
    if timeline:
        # months and days count on a's local calendar; the rest is time on the timeline
        moved = add(a, Duration(months, days, 0))
        return Duration(months, days, b.epoch_nanos() - moved.epoch_nanos())
    start += days
    return Duration(months, days, (b_ord - start) * NANOS_PER_DAY + b_ns - a_ns)


# ---------------------------------------------------------------- order


def _instant_key(v: object) -> tuple:
    if isinstance(v, Date):
        return (v.ordinal,)
    if isinstance(v, LocalTime):
        return (v.nanos,)
    if isinstance(v, Time):
        return (v.utc_nanos(), v.offset)
    if isinstance(v, LocalDateTime):
        return (v.ordinal, v.nanos)
    if isinstance(v, DateTime):
        return (v.epoch_nanos(),)
    raise bad(f"not a temporal value: {kind_name(v)}")


def compare(a: object, b: object) -> int | None:
    """`<` between two temporal values of one kind (by instant for zoned kinds); None when the
    kinds differ or either is a duration, which have no order."""
    if type(a) is not type(b) or isinstance(a, Duration):
        return None
    ka, kb = _instant_key(a), _instant_key(b)
    if isinstance(a, Time):  # the offset only breaks ties in the sort order, not in `<`
        ka, kb = ka[0], kb[0]
    return (ka > kb) - (ka < kb)


# Sub-ranks of the kinds in the global sort order.
_KIND_RANK = {DateTime: 0, LocalDateTime: 1, Date: 2, Time: 3, LocalTime: 4, Duration: 5}


def order_key(v: object) -> tuple:
    """A key that sorts temporal values and durations: by kind, then in time."""
    if isinstance(v, Duration):
        approx = v.months * 2_629_746 * NANOS_PER_SECOND + v.days * NANOS_PER_DAY + v.nanos
        return (_KIND_RANK[Duration], approx, v.months, v.days, v.nanos)
    key = _instant_key(v)
    if isinstance(v, DateTime):
        key = key + (v.offset, v.zone or "")
    return (_KIND_RANK[type(v)],) + key
