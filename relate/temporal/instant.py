"""ISO-8601 text <-> an instant as int nanoseconds since the Unix epoch (UTC), for the times of
time travel (AT VALID, AS OF, RECORDED, `at_time`, spans).

Any text the temporal layer reads as a date or a date time is accepted: a date is its midnight
UTC, a local date time is read as UTC, a zoned one is moved to UTC.  Rendering gives UTC with a
`Z` and as many fraction digits as the nanoseconds need.
"""
from __future__ import annotations

from .values import EPOCH_ORDINAL, render_date

NANOS_PER_DAY = 86_400 * 1_000_000_000


def parse_ns(text: str) -> int | None:
    """ISO-8601 date or date time -> epoch nanoseconds, or None when it is not one."""
    from .build import from_text
    if not isinstance(text, str) or not text.strip():
        return None
    for kind in ("datetime", "date"):
        try:
            value = from_text(kind, text)
        except Exception:  # noqa: BLE001  any refusal of the temporal parser means "not this kind"
            continue
        if kind == "date":
            return (value.ordinal - EPOCH_ORDINAL) * NANOS_PER_DAY  # type: ignore[attr-defined]
        return value.epoch_nanos()  # type: ignore[attr-defined]
    return None


def render_ns(ns: int | None) -> str | None:
    """Epoch nanoseconds -> ISO-8601 UTC text ending in `Z` (None stays None)."""
    if ns is None:
        return None
    days, nanos = divmod(ns, NANOS_PER_DAY)
    secs, frac = divmod(nanos, 1_000_000_000)
    h, rest = divmod(secs, 3600)
    text = f"{render_date(EPOCH_ORDINAL + days)}T{h:02d}:{rest // 60:02d}:{rest % 60:02d}"
    if frac:
        text += "." + f"{frac:09d}".rstrip("0")
    return text + "Z"
