"""Durations: map or component fields -> Duration; Duration -> `P1Y2M3DT4H5M6.7S`; sums and scaling.

A duration is three independent amounts: months, days and nanoseconds.  They are never folded into
each other (a month has no fixed number of days, a day may have 23 or 25 hours), except when a
fractional amount is given: the fraction then spills into the next smaller unit using an average
month of 30.436875 days (a Gregorian year over twelve) and a day of 86400 seconds.  Fractions are
computed exactly, from the shortest decimal text of each float, and truncated toward zero.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from fractions import Fraction

from ..errors import E

from .values import NANOS_PER_SECOND
from .zones import bad

AVG_DAYS_PER_MONTH = Fraction(30436875, 1000000)
SECONDS_PER_DAY = 86400


@dataclass(frozen=True, slots=True)
class Duration:
    months: int
    days: int
    nanos: int  # the time part, signed, in nanoseconds

    @property
    def seconds(self) -> int:
        """Whole seconds of the time part, rounded down (the nanosecond part is never negative)."""
        return self.nanos // NANOS_PER_SECOND

    @property
    def nano_of_second(self) -> int:
        return self.nanos % NANOS_PER_SECOND

    @property
    def nanoseconds(self) -> int:
        """The nanoseconds after `seconds`, 0 to 999,999,999 (as Neo4j's drivers split it)."""
        return self.nanos % NANOS_PER_SECOND

    def to_timedelta(self) -> _dt.timedelta:
        """This duration as a `datetime.timedelta` (a day counts 24 hours; nanoseconds below the
        microsecond are dropped toward zero).  Months have no fixed length: a duration with
        months is refused (a `UsageError`)."""
        if self.months:
            raise E.Usage.Usage(
                f"the duration {self} has months, which have no fixed length, so no timedelta "
                "holds it; read .months, .days, .seconds and .nanoseconds instead")
        micros = abs(self.nanos) // 1000
        return _dt.timedelta(days=self.days, microseconds=micros if self.nanos >= 0 else -micros)

    def __str__(self) -> str:
        return render(self)


def exact(value: int | float | Fraction) -> Fraction:
    """A number as an exact fraction; a float counts as the decimal text it prints as."""
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise bad(f"a duration cannot hold {value!r}")
        return Fraction(repr(value))
    return Fraction(value)


def _trunc(f: Fraction) -> int:
    return int(f)  # int() of a Fraction truncates toward zero


def approximate(months: Fraction, days: Fraction, nanos: Fraction) -> Duration:
    """Exact fractional amounts -> a Duration, spilling each fraction into the next unit down."""
    m = _trunc(months)
    days = days + (months - m) * AVG_DAYS_PER_MONTH
    d = _trunc(days)
    nanos = nanos + (days - d) * SECONDS_PER_DAY * NANOS_PER_SECOND
    return Duration(m, d, _trunc(nanos))


def from_amounts(years=0, quarters=0, months=0, weeks=0, days=0, hours=0, minutes=0, seconds=0,
                 milliseconds=0, microseconds=0, nanoseconds=0) -> Duration:
    """Component amounts (ints or floats, any sign) -> a Duration."""
    if all(type(a) is int for a in (years, quarters, months, weeks, days, hours, minutes, seconds,
                                    milliseconds, microseconds, nanoseconds)):
        # whole amounts need no spilling: plain integer arithmetic, far cheaper than fractions
        return Duration(years * 12 + quarters * 3 + months, weeks * 7 + days,
                        ((hours * 60 + minutes) * 60 + seconds) * NANOS_PER_SECOND
                        + milliseconds * 1_000_000 + microseconds * 1000 + nanoseconds)
    month_total = exact(years) * 12 + exact(quarters) * 3 + exact(months)
    day_total = exact(weeks) * 7 + exact(days)
    nano_total = ((exact(hours) * 3600 + exact(minutes) * 60 + exact(seconds)) * NANOS_PER_SECOND
                  + exact(milliseconds) * 1_000_000 + exact(microseconds) * 1000
                  + exact(nanoseconds))
    return approximate(month_total, day_total, nano_total)


def _part(out: list[str], amount: int, unit: str) -> None:
    if amount:
        out.append(f"{amount}{unit}")


def render(d: Duration) -> str:
    """`P`, years and months, days, then `T` and hours, minutes, seconds; `PT0S` for zero.

    Each component carries its own sign; seconds keep only the fraction digits they need."""
    if not d.months and not d.days and not d.nanos:
        return "PT0S"
    out = ["P"]
    years = abs(d.months) // 12 * (1 if d.months >= 0 else -1)
    _part(out, years, "Y")
    _part(out, d.months - years * 12, "M")
    _part(out, d.days, "D")
    if d.nanos:
        out.append("T")
        sign = -1 if d.nanos < 0 else 1
        total = abs(d.nanos)
        secs, frac = divmod(total, NANOS_PER_SECOND)
        _part(out, sign * (secs // 3600), "H")
        _part(out, sign * (secs // 60 % 60), "M")
        s = secs % 60
        if s or frac:
            text = str(s)
            if frac:
                text += "." + f"{frac:09d}".rstrip("0")
            out.append(("-" if sign < 0 else "") + text + "S")
    return "".join(out)


def add(a: Duration, b: Duration) -> Duration:
    return Duration(a.months + b.months, a.days + b.days, a.nanos + b.nanos)


def sub(a: Duration, b: Duration) -> Duration:
    return Duration(a.months - b.months, a.days - b.days, a.nanos - b.nanos)


def neg(a: Duration) -> Duration:
    return Duration(-a.months, -a.days, -a.nanos)


def scale(a: Duration, factor: int | float | Fraction) -> Duration:
    """A duration times a number; fractional results spill downward like fractional fields."""
    if isinstance(factor, int):
        return Duration(a.months * factor, a.days * factor, a.nanos * factor)
    f = exact(factor)
    return approximate(a.months * f, a.days * f, a.nanos * f)


def divide(a: Duration, divisor: int | float) -> Duration:
    """A duration over a non-zero number."""
    f = exact(divisor)
    return approximate(Fraction(a.months) / f, Fraction(a.days) / f, Fraction(a.nanos) / f)
