"""The temporal value classes and their ISO 8601 text.

Date -> `1984-10-11`; LocalTime -> `12:31:14.645876123`; Time -> `12:31:14+01:00`;
LocalDateTime -> `1984-10-11T12:31`; DateTime -> `1984-10-11T12:31+01:00[Europe/Stockholm]`.

Every value is a frozen slotted dataclass.  Dates are proleptic Gregorian day ordinals (day 1 is
0001-01-01, as in `datetime.date.toordinal`); times of day are nanoseconds since midnight, so
arithmetic and ordering are integer operations.  A DateTime keeps its local fields, its offset and,
for region zones, the zone name; the offset always agrees with the zone at that local time.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from .zones import render_offset

NANOS_PER_SECOND = 1_000_000_000
NANOS_PER_DAY = 86_400 * NANOS_PER_SECOND
EPOCH_ORDINAL = _dt.date(1970, 1, 1).toordinal()
MIN_ORDINAL = _dt.date.min.toordinal()
MAX_ORDINAL = _dt.date.max.toordinal()


class Made:
    """Whether this process has made a date, time or date time value yet: until it has, no result
    can hold one, and the Python API's rows need no look for them (`values/python.py`)."""

    any = False


def _made(self) -> None:  # the `__post_init__` of the five classes below
    Made.any = True


def iso_week(ordinal: int) -> tuple[int, int, int]:
    """Day ordinal -> (week-based year, week 1..53, day of week 1=Monday..7)."""
    y, w, d = _dt.date.fromordinal(ordinal).isocalendar()
    return y, w, d


def week_start(week_year: int) -> int:
    """Ordinal of the Monday that starts week 1 of a week-based year."""
    jan4 = _dt.date(week_year, 1, 4).toordinal()
    return jan4 - (_dt.date.fromordinal(jan4).isoweekday() - 1)


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
    d = _dt.date.fromordinal(ordinal)
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}"


@dataclass(frozen=True, slots=True)
class Date:
    ordinal: int

    __post_init__ = _made

    def to_date(self) -> _dt.date:
        return _dt.date.fromordinal(self.ordinal)

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
