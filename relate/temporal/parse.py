"""ISO 8601 text -> temporal values and durations.

Accepted, each in extended (`-`, `:`) or basic (no separator) form:

- dates: `2015-07-21`, `2015-07`, `2015-W30-2`, `2015-W30`, `2015-202` (ordinal day), `2015`;
  a year of more than four digits needs a sign and the extended form;
- times: `21:40:32.142`, `21:40:32`, `21:40`, `21` (the fraction may use `,` and has 1..9 digits);
- offsets: `Z`, `+01`, `+0100`, `+01:00`, `+01:00:30`, optionally followed by `[Region/Name]`
  (a region name alone, in brackets, is also accepted);
- durations: `P1Y2M3W4DT5H6M7.5S` with any component signed or fractional, a leading sign for
  the whole, or the date-like form `P2012-02-02T14:37:21.545`.

Parsing gives field values only; `build.py` checks ranges and makes the value.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .duration import Duration, approximate
from .values import NANOS_PER_SECOND
from .zones import bad, parse_offset, region

_Y = r"(?P<year>[+-]\d{4,9}|\d{4})"
_Y4 = r"(?P<year>\d{4})"
_DATE_FORMS = [
    re.compile(_Y + r"-(?P<month>\d{2})-(?P<day>\d{2})"),
    re.compile(_Y4 + r"(?P<month>\d{2})(?P<day>\d{2})"),
    re.compile(_Y + r"-W(?P<week>\d{2})-(?P<dayOfWeek>\d)"),
    re.compile(_Y4 + r"W(?P<week>\d{2})(?P<dayOfWeek>\d)"),
    re.compile(_Y + r"-W(?P<week>\d{2})"),
    re.compile(_Y4 + r"W(?P<week>\d{2})"),
    re.compile(_Y + r"-(?P<ordinalDay>\d{3})"),
    re.compile(_Y4 + r"(?P<ordinalDay>\d{3})"),
    re.compile(_Y + r"-(?P<month>\d{2})"),
    re.compile(_Y4 + r"(?P<month>\d{2})"),
    re.compile(_Y),
]
_FRACTION = r"(?:[.,](?P<fraction>\d{1,9}))?"
_TIME_FORMS = [
    re.compile(r"(?P<hour>\d{2}):(?P<minute>\d{2}):(?P<second>\d{2})" + _FRACTION),
    re.compile(r"(?P<hour>\d{2})(?P<minute>\d{2})(?P<second>\d{2})" + _FRACTION),
    re.compile(r"(?P<hour>\d{2}):(?P<minute>\d{2})"),
    re.compile(r"(?P<hour>\d{2})(?P<minute>\d{2})"),
    re.compile(r"(?P<hour>\d{2})"),
]


@dataclass(frozen=True, slots=True)
class ZoneText:
    """The zone part of a text: a fixed offset, a region name, or both (`+02:00[Europe/Oslo]`)."""

    offset: int | None
    region: str | None


def date_fields(text: str) -> dict[str, int]:
    for form in _DATE_FORMS:
        m = form.fullmatch(text)
        if m:
            return {k: int(v) for k, v in m.groupdict().items() if v is not None}
    raise bad(f"cannot parse `{text}` as a date")


def time_fields(text: str) -> dict[str, int]:
    for form in _TIME_FORMS:
        m = form.fullmatch(text)
        if m:
            groups = m.groupdict()
            fraction = groups.pop("fraction", None)
            out = {k: int(v) for k, v in groups.items() if v is not None}
            if fraction:
                out["nanosecond"] = int(fraction.ljust(9, "0"))
            return out
    raise bad(f"cannot parse `{text}` as a time")


def split_zone(text: str) -> tuple[str, ZoneText | None]:
    """`21:40+01:00[Europe/Oslo]` -> (`21:40`, its zone part); no zone part -> (text, None)."""
    name = None
    if text.endswith("]"):
        open_at = text.find("[")
        if open_at < 0:
            raise bad(f"cannot parse `{text}`: unbalanced `[`")
        name = text[open_at + 1:-1]
        region(name)
        text = text[:open_at]
    offset = None
    for i, ch in enumerate(text):
        if ch in "+-Zz":
            offset = parse_offset(text[i:])
            if offset is None:
                raise bad(f"cannot parse `{text[i:]}` as a time zone offset")
            text = text[:i]
            break
    if name is None and offset is None:
        return text, None
    return text, ZoneText(offset, name)


def datetime_fields(text: str) -> tuple[dict[str, int], dict[str, int], ZoneText | None]:
    """`2015-W30-2T21:40:32.142+01:00` -> (date fields, time fields, zone part)."""
    date_text, sep, time_text = text.partition("T")
    if not sep:
        date_text, sep, time_text = text.partition("t")
    if not sep:
        zone = None
        if date_text.endswith("]") and "[" in date_text:
            open_at = date_text.index("[")
            zone = ZoneText(None, date_text[open_at + 1:-1])
            region(zone.region)
            date_text = date_text[:open_at]
        return date_fields(date_text), {}, zone
    rest, zone = split_zone(time_text)
    return date_fields(date_text), time_fields(rest), zone


_NUM = r"([-+]?\d+(?:[.,]\d+)?)"
_DURATION = re.compile(
    r"(?P<sign>[-+]?)P(?:" + _NUM + r"Y)?(?:" + _NUM + r"M)?(?:" + _NUM + r"W)?(?:" + _NUM + r"D)?"
    r"(?:T(?:" + _NUM + r"H)?(?:" + _NUM + r"M)?(?:" + _NUM + r"S)?)?", re.IGNORECASE)
_DURATION_DATELIKE = [
    re.compile(r"(?P<sign>[-+]?)P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}(?:[.,]\d{1,9})?)"),
    re.compile(r"(?P<sign>[-+]?)P(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2}(?:[.,]\d{1,9})?)"),
]


def _num(text: str | None) -> Fraction:
    return Fraction(text.replace(",", ".")) if text else Fraction(0)


def duration(text: str) -> Duration:
    """ISO 8601 duration text -> Duration (fractions spill into smaller units)."""
    m = _DURATION.fullmatch(text)
    if m and any(m.groups()[1:]) and not text.upper().endswith("T"):
        y, mo, w, d, h, mi, s = (_num(g) for g in m.groups()[1:])
        months, days = y * 12 + mo, w * 7 + d
        nanos = (h * 3600 + mi * 60 + s) * NANOS_PER_SECOND
    else:
        for form in _DURATION_DATELIKE:
            m = form.fullmatch(text)
            if m:
                break
        else:
            raise bad(f"cannot parse `{text}` as a duration")
        y, mo, d, h, mi, s = (_num(g) for g in m.groups()[1:])
        months, days = y * 12 + mo, d
        nanos = (h * 3600 + mi * 60 + s) * NANOS_PER_SECOND
    if m.group("sign") == "-":
        months, days, nanos = -months, -days, -nanos
    return approximate(months, days, nanos)
