"""A statement's time-travel prefix: text -> (`TemporalPrefix` | None, the text with the prefix
blanked out).

    AT VALID <time> <write statement>              date every write of the statement
    AS OF <time> [RECORDED <time>] <read statement> read the graph at a past time
    <time> = '<ISO-8601>' | "<ISO-8601>" | $param

The prefix may follow EXPLAIN or PROFILE.  It is cut off before the grammar sees the statement:
its characters become spaces (one for one), so every position the parser and the checks report
stays right.  Neither keyword pair can start a Cypher statement, so text without a prefix parses
exactly as before.  A literal time is checked here (`InvalidTemporalPrefix` at the literal); a
parameter is read when the statement runs.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import E
from .position import position

_TIME = r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\$[A-Za-z_][A-Za-z0-9_]*)"""
_PREFIX = re.compile(r"\s*(?:(?:EXPLAIN|PROFILE)\s+)?(?P<p>(?P<k>AT\s+VALID|AS\s+OF)\s+" + _TIME
                     + r"(?:\s+RECORDED\s+" + _TIME + r")?)(?=\s|\(|$)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TimeRef:
    """One time of a prefix: a literal's instant (epoch ns) or a parameter's name."""

    ns: int | None
    param: str | None
    offset: int


@dataclass(frozen=True, slots=True)
class TemporalPrefix:
    kind: str  # "valid" (AT VALID) or "as_of" (AS OF)
    time: TimeRef
    recorded: TimeRef | None = None


def _ref(text: str, token: str, offset: int, what: str) -> TimeRef:
    if token.startswith("$"):
        return TimeRef(None, token[1:], offset)
    from ..temporal.instant import parse_ns  # temporal parsing loads only for a prefix
    ns = parse_ns(token[1:-1])
    if ns is None:
        raise E.Temporal.InvalidTemporalPrefix(what=what, got=token, position=position(text, offset))
    return TimeRef(ns, None, offset)


def split(text: str) -> tuple[TemporalPrefix | None, str]:
    """-> (the prefix, the text the grammar reads), or (None, text) when there is none."""
    m = _PREFIX.match(text)
    if m is None:
        return None, text
    kind = "valid" if m.group("k")[:2].upper() == "AT" else "as_of"
    what = "AT VALID" if kind == "valid" else "AS OF"
    time = _ref(text, m.group(3), m.start(3), what)
    recorded = None
    if m.group(4) is not None:
        if kind == "valid":
            raise E.Syntax.ParseError("RECORDED follows AS OF only (AT VALID dates writes; the database "
                                      "records them now)", position=position(text, m.start(4)))
        recorded = _ref(text, m.group(4), m.start(4), "RECORDED")
    start, end = m.span("p")
    return TemporalPrefix(kind, time, recorded), text[:start] + " " * (end - start) + text[end:]


def resolve(ref: TimeRef, params: dict, what: str) -> int:
    """A time of the prefix -> epoch ns (a parameter read from `params`: ISO text or a temporal value)."""
    if ref.ns is not None:
        return ref.ns
    value = params.get(ref.param)
    ns = None
    if isinstance(value, str):
        from ..temporal.instant import parse_ns
        ns = parse_ns(value)
    elif value is not None and hasattr(value, "epoch_nanos"):
        ns = value.epoch_nanos()
    elif value is not None and hasattr(value, "ordinal"):  # a date, or a local date time read as UTC
        from ..temporal.instant import NANOS_PER_DAY
        from ..temporal.values import EPOCH_ORDINAL
        ns = (value.ordinal - EPOCH_ORDINAL) * NANOS_PER_DAY + getattr(value, "nanos", 0)
    if ns is None:
        raise E.Temporal.InvalidTemporalPrefix(what=what, got=f"${ref.param} = {value!r}")
    return ns
