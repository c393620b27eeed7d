"""The proleptic Gregorian calendar on plain integers: (year, month, day) <-> day ordinal.

Day 1 is 0001-01-01 (as `datetime.date.toordinal` counts), day 0 is 0000-12-31, and the count
runs on into negative numbers: year 0 is 1 BC and a leap year, as ISO 8601 and java.time have it.
The functions hold for any integer; the supported values are the years -999,999,999 to
+999,999,999 (`MIN_YEAR`, `MAX_YEAR`), as in the reference dialect.

Inside Python's own years 1..9999 the `datetime` module's C code does the arithmetic (the
common case, and faster than any Python loop); outside them the year is moved by whole 400-year
cycles (146,097 days, exactly 20,871 weeks, so weekdays and leap days repeat) into that range
and back.  Nothing here checks a range: the callers do, with the field they were given.
"""
from __future__ import annotations

import datetime as _dt

MIN_YEAR = -999_999_999
MAX_YEAR = 999_999_999
CYCLE_DAYS = 146_097  # days in 400 Gregorian years
CYCLE_YEARS = 400

_fromordinal = _dt.date.fromordinal
_date = _dt.date
_PY_MIN = 1  # 0001-01-01
_PY_MAX = _dt.date.max.toordinal()  # 9999-12-31
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def month_length(year: int, month: int) -> int:
    """Days in a month (1..12) of a year."""
    if month == 2 and is_leap(year):
        return 29
    return _MONTH_DAYS[month - 1]


def year_length(year: int) -> int:
    return 366 if is_leap(year) else 365


def ymd_to_ordinal(year: int, month: int, day: int) -> int:
    """(year, month 1..12, day) -> day ordinal.  The day is not checked against the month: day 0
    is the month's eve and day 32 runs into the next month."""
    if 1 <= year <= 9999:
        return _date(year, month, 1).toordinal() + day - 1
    return _slow(year, month, day)


def _slow(year: int, month: int, day: int) -> int:
    cycles, y = divmod(year - 1, CYCLE_YEARS)  # y + 1 is in 1..400
    return cycles * CYCLE_DAYS + _date(y + 1, month, 1).toordinal() + day - 1


def ordinal_to_ymd(ordinal: int) -> tuple[int, int, int]:
    """Day ordinal -> (year, month, day)."""
    if _PY_MIN <= ordinal <= _PY_MAX:
        d = _fromordinal(ordinal)
        return d.year, d.month, d.day
    cycles, rest = divmod(ordinal - 1, CYCLE_DAYS)  # rest + 1 is in 0001-01-01 .. 0400-12-31
    d = _fromordinal(rest + 1)
    return d.year + cycles * CYCLE_YEARS, d.month, d.day


def year_of(ordinal: int) -> int:
    if _PY_MIN <= ordinal <= _PY_MAX:
        return _fromordinal(ordinal).year
    return ordinal_to_ymd(ordinal)[0]


def weekday(ordinal: int) -> int:
    """ISO day of week: 1 = Monday .. 7 = Sunday (0001-01-01 was a Monday)."""
    return (ordinal - 1) % 7 + 1


def year_start(year: int) -> int:
    """Ordinal of January 1 of a year."""
    return _slow(year, 1, 1)


def day_of_year(ordinal: int) -> int:
    return ordinal - year_start(year_of(ordinal)) + 1


def week_start(week_year: int) -> int:
    """Ordinal of the Monday that starts week 1 of a week-based year (the week holding Jan 4)."""
    jan4 = _slow(week_year, 1, 4)
    return jan4 - weekday(jan4) + 1


def iso_week(ordinal: int) -> tuple[int, int, int]:
    """Day ordinal -> (week-based year, week 1..53, day of week 1 = Monday .. 7)."""
    if _PY_MIN <= ordinal <= _PY_MAX:  # 0001-01-01 is a Monday, 9999-12-31 a Friday
        y, w, d = _fromordinal(ordinal).isocalendar()
        return y, w, d
    dow = weekday(ordinal)
    thursday = ordinal - dow + 4  # a week belongs to the year its Thursday is in
    week_year = year_of(thursday)
    return week_year, (thursday - year_start(week_year)) // 7 + 1, dow


def weeks_in(week_year: int) -> int:
    """52 or 53: the week number of December 28, which always lies in the year's last week."""
    return iso_week(_slow(week_year, 12, 28))[1]


__all__ = ["MIN_YEAR", "MAX_YEAR", "CYCLE_DAYS", "CYCLE_YEARS", "is_leap", "month_length",
           "year_length", "ymd_to_ordinal", "ordinal_to_ymd", "year_of", "weekday", "year_start",
           "day_of_year", "week_start", "iso_week", "weeks_in"]
