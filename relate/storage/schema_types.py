"""Property types of a property type constraint (`REQUIRE n.p IS :: INTEGER | LIST<STRING NOT NULL>`):
the type words as written -> the normalized text Neo4j shows (`SHOW CONSTRAINTS`' propertyType),
and a stored value -> whether it has that type.

Normalized form: the member types without repeats, in Neo4j's order (BOOLEAN, STRING, INTEGER,
FLOAT, DATE, LOCAL TIME, ZONED TIME, LOCAL DATETIME, ZONED DATETIME, DURATION, POINT, then the
lists in the same order of their element types), joined by ` | `; a list is `LIST<T NOT NULL>`.
"""
from __future__ import annotations

ORDER = ("BOOLEAN", "STRING", "INTEGER", "FLOAT", "DATE", "LOCAL TIME", "ZONED TIME", "LOCAL DATETIME",
         "ZONED DATETIME", "DURATION", "POINT")

SYNONYMS = {
    "BOOL": "BOOLEAN", "BOOLEAN": "BOOLEAN", "STRING": "STRING", "VARCHAR": "STRING",
    "INT": "INTEGER", "INTEGER": "INTEGER", "SIGNED INTEGER": "INTEGER", "FLOAT": "FLOAT",
    "DATE": "DATE", "LOCAL TIME": "LOCAL TIME", "TIME WITHOUT TIME ZONE": "LOCAL TIME",
    "ZONED TIME": "ZONED TIME", "TIME WITH TIME ZONE": "ZONED TIME",
    "LOCAL DATETIME": "LOCAL DATETIME", "TIMESTAMP WITHOUT TIME ZONE": "LOCAL DATETIME",
    "ZONED DATETIME": "ZONED DATETIME", "TIMESTAMP WITH TIME ZONE": "ZONED DATETIME",
    "DURATION": "DURATION", "POINT": "POINT",
}
LISTS = ("LIST", "ARRAY")

# the temporal and spatial classes (`relate.temporal`) by the type they have
_CLASS_TYPES = {"Date": "DATE", "LocalTime": "LOCAL TIME", "Time": "ZONED TIME",
                "LocalDateTime": "LOCAL DATETIME", "DateTime": "ZONED DATETIME", "Duration": "DURATION",
                "Point": "POINT"}


class TypeError_(ValueError):
    """A type a property type constraint cannot have; the message says why."""


def _normalize(parts) -> str:
    """`parts`: [(words, inner parts or None, not_null)] -> the normalized type text; `TypeError_`
    for a type no constraint may have."""
    simple: set[str] = set()
    lists: set[str] = set()
    for words, inner, not_null in parts:
        name = " ".join(w.upper() for w in words)
        if not_null:
            raise TypeError_(f"`{_text(words, inner, not_null)}`: a property type constraint cannot say "
                             "NOT NULL (use a separate IS NOT NULL constraint)")
        if inner is None:
            if name not in SYNONYMS:
                raise TypeError_(f"`{name}` is not a property type a constraint can require")
            simple.add(SYNONYMS[name])
            continue
        if name not in LISTS:
            raise TypeError_(f"`{name}<...>` is not a property type a constraint can require")
        for iw, ii, inn in inner:
            iname = " ".join(w.upper() for w in iw)
            if ii is not None or iname not in SYNONYMS:
                raise TypeError_(f"`{_text(words, inner, not_null)}`: list elements must be one of "
                                 + ", ".join(ORDER))
            if not inn:
                raise TypeError_(f"`{_text(words, inner, not_null)}`: list element types must be NOT NULL "
                                 f"(LIST<{SYNONYMS[iname]} NOT NULL>)")
            lists.add(SYNONYMS[iname])
    out = [t for t in ORDER if t in simple] + [f"LIST<{t} NOT NULL>" for t in ORDER if t in lists]
    return " | ".join(out)


def normalize_type(t) -> str:
    """A type as the grammar's `cypher_type` builds it (`syntax.ast.CypherType`: `name`,
    `nullable`, `inner`, `members`; a union is named UNION) -> the normalized type text."""
    parts: list = []
    for m in (t.members if t.name == "UNION" else (t,)):
        if m.name == "LIST" and m.inner is not None:
            inner = m.inner
            parts.append(((m.name,), [((inner.name,), None if inner.inner is None else [], not inner.nullable)],
                          not m.nullable))
        else:
            parts.append(((m.name,), None, not m.nullable))
    return _normalize(parts)


def _text(words, inner, not_null) -> str:
    t = " ".join(w.upper() for w in words)
    if inner is not None:
        t += "<" + " | ".join(_text(*p) for p in inner) + ">"
    return t + (" NOT NULL" if not_null else "")


def value_type(v) -> str | None:
    """The property type of a stored value, lists as `LIST<T NOT NULL>`; None for a list of
    mixed or unknown element types."""
    if v is True or v is False:
        return "BOOLEAN"
    if isinstance(v, int):
        return "INTEGER"
    if isinstance(v, float):
        return "FLOAT"
    if isinstance(v, str):
        return "STRING"
    if isinstance(v, list):
        inner = {value_type(x) for x in v}
        if len(inner) == 1:
            t = inner.pop()
            return None if t is None or t.startswith("LIST") else f"LIST<{t} NOT NULL>"
        return None
    return _CLASS_TYPES.get(type(v).__name__)


def conforms(v, normalized: str) -> bool:
    """Whether a present property value `v` has one of the types of `normalized`.  An empty list
    has every list type."""
    members = normalized.split(" | ")
    if isinstance(v, list) and not v:
        return any(m.startswith("LIST<") for m in members)
    t = value_type(v)
    return t is not None and t in members
