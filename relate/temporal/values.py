"""The temporal value classes and their ISO 8601 text.

Date -> `1984-10-11`; LocalTime -> `12:31:14.645876123`; Time -> `12:31:14+01:00`;
LocalDateTime -> `1984-10-11T12:31`; DateTime -> `1984-10-11T12:31+01:00[Europe/Stockholm]`.

Every value is a frozen slotted dataclass.  Dates are proleptic Gregorian day ordinals (day 1 is
0001-01-01, as in `datetime.date.toordinal`; `calendar.py`), for the years -999,999,999 to
+999,999,999; times of day are nanoseconds since midnight, so
arithmetic and ordering are integer operations.  A DateTime keeps its local fields, its offset and,
for region zones, the zone name; the offset always agrees with the zone at that local time.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from ..errors import E
from .calendar import MAX_YEAR, MIN_YEAR, iso_week, ordinal_to_ymd, week_start, ymd_to_ordinal
from .zones import render_offset

NANOS_PER_SECOND = 1_000_000_000
NANOS_PER_DAY = 86_400 * NANOS_PER_SECOND
EPOCH_ORDINAL = ymd_to_ordinal(1970, 1, 1)
MIN_ORDINAL = ymd_to_ordinal(MIN_YEAR, 1, 1)
MAX_ORDINAL = ymd_to_ordinal(MAX_YEAR, 12, 31)
YEARS_TEXT = f"{MIN_YEAR} to {MAX_YEAR}"  # the supported years, as errors name them
_PY_MAX = _dt.date.max.toordinal()
_fromordinal = _dt.date.fromordinal


class Made:
    """Whether this process has made a date, time or date time value yet: until it has, no result
    can hold one, and the Python API's rows need no look for them (`values/python.py`)."""

    any = False


def _made(self) -> None:  # the `__post_init__` of the five classes below
    Made.any = True


def render_time(nanos: int) -> str:
    """Nanoseconds of day -> `HH:MM`, `HH:MM:SS` or with a 3, 6 or 9 digit fraction."""
    secs, frac = divmod(nanos, NANOS_PER_SECOND)
    h, rest = divmod(secs, 3600)
    m, s = divmod(rest, 60)
    text = f"{h:02d}:{m:02d}"
    if s or frac:
        text += f":{s:02d}"
        if frac:
            if frac % 1_000_000 == 0:
                text += f".{frac // 1_000_000:03d}"
            elif frac % 1000 == 0:
                text += f".{frac // 1000:06d}"
            else:
                text += f".{frac:09d}"
    return text


def render_date(ordinal: int) -> str:
    """Day ordinal -> `1984-10-11`; years outside 0..9999 signed, as java.time prints them
    (`+10000-01-01`, `-0001-01-01`)."""
    if 1 <= ordinal <= _PY_MAX:  # the common case, on datetime's C code
        d = _fromordinal(ordinal)
        return f"{d.year:04d}-{d.month:02d}-{d.day:02d}"
    y, m, day = ordinal_to_ymd(ordinal)
    if y == 0:
        return f"0000-{m:02d}-{day:02d}"
    return f"{y:+05d}-{m:02d}-{day:02d}"


def to_py_date(ordinal: int, value: object) -> _dt.date:
    """Day ordinal -> `datetime.date`, which holds only the years 1 to 9999: any other is a
    `UsageError` naming `value` (the temporal value the date belongs to)."""
    if not 1 <= ordinal <= _PY_MAX:
        raise E.Usage.Usage(
            f"{value} is outside the years 1 to 9999 that Python's datetime can hold; "
            "str() of the value gives its ISO 8601 text")
    return _dt.date.fromordinal(ordinal)


@dataclass(frozen=True, slots=True)
class Date:
    ordinal: int

    __post_init__ = _made

    def to_date(self) -> _dt.date:
        return to_py_date(self.ordinal, self)

    def __str__(self) -> str:
        return render_date(self.ordinal)


@dataclass(frozen=True, slots=True)
class LocalTime:
    nanos: int

    __post_init__ = _made

    def __str__(self) -> str:
        return render_time(self.nanos)


@dataclass(frozen=True, slots=True)
class Time:
    nanos: int
    offset: int

    __post_init__ = _made

    def utc_nanos(self) -> int:
        return self.nanos - self.offset * NANOS_PER_SECOND

    def __str__(self) -> str:
        return render_time(self.nanos) + render_offset(self.offset)


@dataclass(frozen=True, slots=True)
class LocalDateTime:
    ordinal: int
    nanos: int

    __post_init__ = _made

    def __str__(self) -> str:
        return render_date(self.ordinal) + "T" + render_time(self.nanos)


@dataclass(frozen=True, slots=True)
class DateTime:
    ordinal: int
    nanos: int
    offset: int
    zone: str | None = None

    __post_init__ = _made

    def epoch_nanos(self) -> int:
        """Nanoseconds since 1970-01-01T00:00Z."""
        return ((self.ordinal - EPOCH_ORDINAL) * NANOS_PER_DAY + self.nanos
                - self.offset * NANOS_PER_SECOND)

    def __str__(self) -> str:
        text = render_date(self.ordinal) + "T" + render_time(self.nanos) + render_offset(self.offset)
        return text + f"[{self.zone}]" if self.zone else text


TEMPORAL_TYPES = (Date, LocalTime, Time, LocalDateTime, DateTime)

__all__ = ["NANOS_PER_SECOND", "NANOS_PER_DAY", "EPOCH_ORDINAL", "MIN_ORDINAL", "MAX_ORDINAL",
           "YEARS_TEXT", "Made", "iso_week", "week_start", "render_time", "render_date",
           "to_py_date", "Date", "LocalTime", "Time", "LocalDateTime", "DateTime",
           "TEMPORAL_TYPES"]
