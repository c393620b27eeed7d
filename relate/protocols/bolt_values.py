"""Cypher values <-> the PackStream structures of Bolt 5.x.

`to_bolt(value)`: an engine value (entities, paths, temporal values, durations, points, lists,
maps, scalars, bytes) -> what `bolt_packstream.pack` takes.  `from_bolt(value)`: a decoded
parameter -> an engine value; a structure that is no Cypher value, or one with fields of the
wrong shape, is a `Request.Invalid` error (entities are results, never parameters).

Bolt 5 structures (tag: fields):
  N node (id, labels, properties, element_id)
  R relationship (id, start id, end id, type, properties, element_id, start element_id, end element_id)
  r unbound relationship (id, type, properties, element_id), only inside a path
  P path (distinct nodes, distinct unbound relationships, indices): two indices per hop, the
    relationship's 1-based place (negative when the hop walks it from its end to its start),
    then the next node's 0-based place
  D date (days since 1970-01-01), T time (nanoseconds of the day, offset seconds),
  t local time (nanoseconds of the day), d local datetime (seconds, nanoseconds as if UTC),
  I datetime with an offset (UTC epoch seconds, nanoseconds, offset seconds),
  i datetime with a zone (UTC epoch seconds, nanoseconds, zone name),
  E duration (months, days, seconds, nanoseconds), X 2D point (srid, x, y), Y 3D point (srid, x, y, z)
Element ids are the engine's `elementId()`, the stable string ids: `n<id>` for a node, `r<id>` for a
relationship (`values/str_ids.py`).
"""
from __future__ import annotations

from ..errors import E
from ..values import Node, Path, Relationship
from ..values.str_ids import node_str_id, rel_str_id
from .bolt_packstream import INT64_MAX, INT64_MIN, Structure

NANOS = 1_000_000_000
DAY_NANOS = 86_400 * NANOS


def node_element_id(node: Node) -> str:
    return node_str_id(node.id)


def rel_element_id(rel: Relationship) -> str:
    return rel_str_id(rel.id)


def _props(entity) -> dict:
    return {k: to_bolt(v) for k, v in entity.props.items()}


def _node(n: Node) -> Structure:
    return Structure(0x4E, (n.id, sorted(n.labels), _props(n), node_element_id(n)))


def _rel(r: Relationship) -> Structure:
    return Structure(0x52, (r.id, r.start.id, r.end.id, r.type, _props(r), rel_element_id(r),
                            node_element_id(r.start), node_element_id(r.end)))


def _path(p: Path) -> Structure:
    nodes: list[Node] = []
    node_at: dict[int, int] = {}
    for n in p.nodes:
        if n.id not in node_at:
            node_at[n.id] = len(nodes)
            nodes.append(n)
    rels: list[Relationship] = []
    rel_at: dict[int, int] = {}
    indices: list[int] = []
    for i, r in enumerate(p.rels):
        if r.id not in rel_at:
            rel_at[r.id] = len(rels) + 1
            rels.append(r)
        here, there = p.nodes[i], p.nodes[i + 1]  # the hop walks r from `here` to `there`
        indices.append(rel_at[r.id] if r.start.id == here.id else -rel_at[r.id])
        indices.append(node_at[there.id])
    unbound = [Structure(0x72, (r.id, r.type, _props(r), rel_element_id(r))) for r in rels]
    return Structure(0x50, ([_node(n) for n in nodes], unbound, indices))


def to_bolt(v):
    """An engine value -> a PackStream value."""
    if v is None or v is True or v is False or isinstance(v, (int, float, str, bytes)):
        return v
    if isinstance(v, list):
        return [to_bolt(x) for x in v]
    if isinstance(v, dict):
        return {k: to_bolt(x) for k, x in v.items()}
    if isinstance(v, Node):
        return _node(v)
    if isinstance(v, Relationship):
        return _rel(v)
    if isinstance(v, Path):
        return _path(v)
    return _temporal(v)


def _temporal(v):
    from ..temporal.duration import Duration
    from ..temporal.point import Point
    from ..temporal.values import EPOCH_ORDINAL, Date, DateTime, LocalDateTime, LocalTime, Time
    if isinstance(v, Date):
        return Structure(0x44, (v.ordinal - EPOCH_ORDINAL,))
    if isinstance(v, LocalTime):
        return Structure(0x74, (v.nanos,))
    if isinstance(v, Time):
        return Structure(0x54, (v.nanos, v.offset))
    if isinstance(v, LocalDateTime):
        seconds, nanos = divmod((v.ordinal - EPOCH_ORDINAL) * DAY_NANOS + v.nanos, NANOS)
        return Structure(0x64, (seconds, nanos))
    if isinstance(v, DateTime):
        seconds, nanos = divmod(v.epoch_nanos(), NANOS)
        if v.zone:
            return Structure(0x69, (seconds, nanos, v.zone))
        return Structure(0x49, (seconds, nanos, v.offset))
    if isinstance(v, Duration):
        seconds, nanos = divmod(v.nanos, NANOS)
        return Structure(0x45, (v.months, v.days, seconds, nanos))
    if isinstance(v, Point):
        return Structure(0x58 if len(v.coords) == 2 else 0x59, (v.srid, *v.coords))
    if isinstance(v, tuple):
        return [to_bolt(x) for x in v]
    raise E.Internal.Internal(f"no Bolt form for a {type(v).__name__} value")


# ---------------------------------------------------------------- parameters
_SHAPES = {  # tag -> (name, field types)
    0x44: ("Date", (int,)),
    0x54: ("Time", (int, int)),
    0x74: ("LocalTime", (int,)),
    0x64: ("LocalDateTime", (int, int)),
    0x49: ("DateTime", (int, int, int)),
    0x69: ("DateTimeZoneId", (int, int, str)),
    0x45: ("Duration", (int, int, int, int)),
    0x58: ("Point2D", (int, float, float)),
    0x59: ("Point3D", (int, float, float, float)),
}
_NOT_PARAMETERS = {0x4E: "a node", 0x52: "a relationship", 0x72: "an unbound relationship", 0x50: "a path",
                   0x46: "a legacy datetime (Bolt 4)", 0x66: "a legacy zoned datetime (Bolt 4)"}


def _invalid(detail: str):
    return E.Request.Invalid(detail)


def from_bolt(v, depth: int = 0):
    """A decoded parameter value -> the engine's value."""
    if isinstance(v, list):
        return [from_bolt(x, depth + 1) for x in v]
    if isinstance(v, dict):
        return {k: from_bolt(x, depth + 1) for k, x in v.items()}
    if isinstance(v, Structure):
        return _struct(v)
    return v


def _struct(s: Structure):
    if s.tag in _NOT_PARAMETERS:
        raise _invalid(f"{_NOT_PARAMETERS[s.tag]} cannot be passed as a parameter")
    shape = _SHAPES.get(s.tag)
    if shape is None:
        raise _invalid(f"unknown structure tag 0x{s.tag:02X} in the parameters")
    name, types = shape
    if len(s.fields) != len(types) or not all(
            isinstance(f, t) and not isinstance(f, bool) for f, t in zip(s.fields, types)):
        want = ", ".join(t.__name__ for t in types)
        raise _invalid(f"a {name} structure takes {len(types)} fields ({want})")
    from ..temporal.duration import Duration
    from ..temporal.point import CRS_BY_SRID, Point
    from ..temporal.values import (EPOCH_ORDINAL, MAX_ORDINAL, MIN_ORDINAL, YEARS_TEXT, Date,
                                   DateTime, LocalDateTime, LocalTime, Time)
    f = s.fields

    def day_ordinal(days: int) -> int:
        ordinal = EPOCH_ORDINAL + days
        if not MIN_ORDINAL <= ordinal <= MAX_ORDINAL:
            raise _invalid(f"a {name} outside the years {YEARS_TEXT}")
        return ordinal

    def time_of_day(nanos: int) -> int:
        if not 0 <= nanos < DAY_NANOS:
            raise _invalid(f"a {name} whose time of day is outside 00:00 to 24:00")
        return nanos

    def offset(seconds: int) -> int:
        if not -18 * 3600 <= seconds <= 18 * 3600:
            raise _invalid(f"a {name} whose offset is outside -18:00 to +18:00")
        return seconds

    def local(total_nanos: int) -> tuple[int, int]:
        days, nanos = divmod(total_nanos, DAY_NANOS)
        return day_ordinal(days), nanos

    if s.tag == 0x44:
        return Date(day_ordinal(f[0]))
    if s.tag == 0x74:
        return LocalTime(time_of_day(f[0]))
    if s.tag == 0x54:
        return Time(time_of_day(f[0]), offset(f[1]))
    if s.tag in (0x64, 0x49, 0x69):
        if not 0 <= f[1] < NANOS:
            raise _invalid(f"a {name} whose nanoseconds are outside 0 to 999999999")
        if s.tag == 0x64:
            return LocalDateTime(*local(f[0] * NANOS + f[1]))
        if s.tag == 0x49:
            off = offset(f[2])
            return DateTime(*local((f[0] + off) * NANOS + f[1]), off, None)
        from ..temporal.zones import offset_for_instant
        try:
            off = offset_for_instant(f[2], f[0])
        except OverflowError:
            raise _invalid(f"a {name} outside the years {YEARS_TEXT}") from None
        return DateTime(*local((f[0] + off) * NANOS + f[1]), off, f[2])
    if s.tag == 0x45:
        nanos = f[2] * NANOS + f[3]
        if not all(INT64_MIN <= x <= INT64_MAX for x in (f[0], f[1], nanos)):
            raise _invalid("a Duration outside the 64-bit range")
        return Duration(f[0], f[1], nanos)
    srid = f[0]
    dims = 2 if s.tag == 0x58 else 3
    if srid not in CRS_BY_SRID or (srid in (7203, 4326)) != (dims == 2):
        raise _invalid(f"a {name} with SRID {srid}: relate knows 7203 and 4326 (2D), 9157 and 4979 (3D)")
    return Point(srid, tuple(f[1:]))
