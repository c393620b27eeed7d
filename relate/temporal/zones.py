"""Time zones: offset text -> seconds, zone names -> IANA rules, local time <-> instant.

A zone is either a fixed offset (an int of seconds east of UTC) or a region name whose rules come
from the pinned `tzdata` wheel.  The wheel is read first, before any system zone folder, so the
native build and the browser build (which has no system zones) see the very same history.

Python's `datetime` holds only the years 1 to 9999, so a time outside 2..9998 is moved by whole
400-year cycles into them to look up its offset: the zone's last rule then repeats into the far
future (as java.time extends it) and the far past gets the zone's first offset (its local mean
time, as java.time has it before the first transition).
"""
from __future__ import annotations

import datetime as _dt
import re
import zoneinfo

from ..errors import CypherArgumentError, E
from .calendar import CYCLE_DAYS

MAX_OFFSET = 18 * 3600
_OFFSET = re.compile(r"([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?")
_CACHE: dict[str, _dt.tzinfo] = {}
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_EPOCH_ORDINAL = 719_163  # 1970-01-01
_SAFE_LO = _dt.date(2, 1, 1).toordinal()  # a day and an offset from it stay inside 1..9999
_SAFE_HI = _dt.date(9998, 12, 31).toordinal()


def _cycles(ordinal: int) -> int:
    """How many 400-year cycles to add to a day to bring it inside the years 2..9998."""
    if ordinal < _SAFE_LO:
        return -((ordinal - _SAFE_LO) // CYCLE_DAYS)
    if ordinal > _SAFE_HI:
        return (_SAFE_HI - ordinal) // CYCLE_DAYS
    return 0


def bad(detail: str) -> CypherArgumentError:
    return E.Argument.InvalidArgumentValue(detail)


def parse_offset(text: str) -> int | None:
    """`Z`, `+01`, `+0100`, `+01:00`, `+01:00:30` -> seconds; None when `text` is no offset."""
    if text in ("Z", "z"):
        return 0
    m = _OFFSET.fullmatch(text)
    if not m:
        return None
    sign, hh, mm, ss = m.groups()
    secs = int(hh) * 3600 + int(mm or 0) * 60 + int(ss or 0)
    if int(mm or 0) > 59 or int(ss or 0) > 59 or secs > MAX_OFFSET:
        raise bad(f"time zone offset out of range: {text}")
    return -secs if sign == "-" else secs


def render_offset(seconds: int) -> str:
    """Seconds -> `Z`, `+01:00` or `+00:53:28` (seconds only when there are some)."""
    if seconds == 0:
        return "Z"
    sign = "-" if seconds < 0 else "+"
    s = abs(seconds)
    text = f"{sign}{s // 3600:02d}:{s // 60 % 60:02d}"
    return text + f":{s % 60:02d}" if s % 60 else text


def region(name: str) -> _dt.tzinfo:
    """The rules of an IANA zone name, from the tzdata wheel when it has them."""
    zone = _CACHE.get(name)
    if zone is not None:
        return zone
    if not name or name.startswith(("/", ".")) or ".." in name or "\\" in name:
        raise bad(f"unknown time zone: {name}")
    zone = None
    try:
        import importlib.resources as resources
        ref = resources.files("tzdata.zoneinfo").joinpath(*name.split("/"))
        with ref.open("rb") as fh:
            zone = zoneinfo.ZoneInfo.from_file(fh, key=name)
    except (ImportError, OSError, ValueError):
        zone = None
    if zone is None:
        try:
            zone = zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            raise bad(f"unknown time zone: {name}") from None
    _CACHE[name] = zone
    return zone


def zone_of(text: str) -> tuple[int | None, str | None]:
    """A `timezone` value -> (fixed offset, None) or (None, region name)."""
    off = parse_offset(text)
    if off is not None:
        return off, None
    region(text)
    return None, text


def _local_dt(ordinal: int, second_of_day: int) -> _dt.datetime:
    return _dt.datetime.fromordinal(ordinal) + _dt.timedelta(seconds=second_of_day)


def offset_for_local(name: str, ordinal: int, second_of_day: int) -> tuple[int, int]:
    """The offset a region has at a local time -> (offset seconds, shift seconds).

    In an overlap the earlier offset wins; in a gap the local time moves forward by the gap's
    length (`shift`), the way java.time resolves them, which the reference dialect follows."""
    zone = region(name)
    if not _SAFE_LO <= ordinal <= _SAFE_HI:
        ordinal += _cycles(ordinal) * CYCLE_DAYS
    local = _local_dt(ordinal, second_of_day)
    first = local.replace(tzinfo=zone, fold=0).utcoffset()
    second = local.replace(tzinfo=zone, fold=1).utcoffset()
    off0 = int(first.total_seconds()) if first is not None else 0
    off1 = int(second.total_seconds()) if second is not None else 0
    if off0 == off1:
        return off0, 0
    # Either an overlap (fold 0 is the earlier offset) or a gap (the time does not exist).
    back = (local - _dt.timedelta(seconds=off0)).replace(tzinfo=_dt.timezone.utc).astimezone(zone)
    if back.replace(tzinfo=None) == local:
        return off0, 0
    return off1, off1 - off0


def offset_for_instant(name: str, epoch_seconds: int) -> int:
    """The offset a region has at an instant (seconds since 1970-01-01T00:00Z)."""
    zone = region(name)
    day = _EPOCH_ORDINAL + epoch_seconds // 86_400
    if not _SAFE_LO <= day <= _SAFE_HI:
        epoch_seconds += _cycles(day) * CYCLE_DAYS * 86_400
    moment = _EPOCH + _dt.timedelta(seconds=epoch_seconds)
    off = moment.astimezone(zone).utcoffset()
    return int(off.total_seconds()) if off is not None else 0
