"""Values against Cypher types: does a value belong to a type (`x IS :: T`, property type
constraints), and the type Neo4j's `valueType()` names for it.

A type is any object with the fields of `syntax.ast.CypherType` (`name`, `nullable`, `inner`,
`members`): this layer reads them and imports nothing above it.  Names are Neo4j's: `INTEGER`,
`LOCAL DATETIME`, `PROPERTY VALUE`, `LIST` (element type in `inner`), `UNION` (member types in
`members`), `ANY`, `NOTHING` (holds no value, not even null), `NULL` (holds only null).  Every other
type holds null unless it is NOT NULL.
"""
from __future__ import annotations

from .entities import Node, Path, Relationship

# relate.temporal's classes, by name (this layer does not import them to test a value)
_TEMPORAL = {"Date": "DATE", "LocalTime": "LOCAL TIME", "Time": "ZONED TIME",
             "LocalDateTime": "LOCAL DATETIME", "DateTime": "ZONED DATETIME",
             "Duration": "DURATION", "Point": "POINT"}

# the order Neo4j lists the members of a union in
ORDER = ("BOOLEAN", "STRING", "INTEGER", "FLOAT", "DATE", "LOCAL TIME", "ZONED TIME",
         "LOCAL DATETIME", "ZONED DATETIME", "DURATION", "POINT", "NODE", "RELATIONSHIP", "MAP",
         "LIST", "PATH")
_PROPERTY_SCALARS = frozenset(("BOOLEAN", "STRING", "INTEGER", "FLOAT", "DATE", "LOCAL TIME",
                               "ZONED TIME", "LOCAL DATETIME", "ZONED DATETIME", "DURATION", "POINT"))


def kind(v: object) -> str:
    """The name of the simple type of a non-null value (`LIST` for any list)."""
    if v is True or v is False:
        return "BOOLEAN"
    t = type(v)
    if t is int:
        return "INTEGER"
    if t is float:
        return "FLOAT"
    if t is str:
        return "STRING"
    if t is list:
        return "LIST"
    if t is dict:
        return "MAP"
    if isinstance(v, Node):
        return "NODE"
    if isinstance(v, Relationship):
        return "RELATIONSHIP"
    if isinstance(v, Path):
        return "PATH"
    name = _TEMPORAL.get(t.__name__)
    if name is not None:
        return name
    if isinstance(v, int):
        return "INTEGER"
    return "ANY"


def conforms(v: object, t) -> bool:
    """Does the value `v` belong to the type `t`?"""
    name = t.name
    if name == "UNION":
        return any(conforms(v, m) for m in t.members)
    if v is None:
        return t.nullable and name != "NOTHING"
    if name == "ANY":
        return True
    if name in ("NOTHING", "NULL"):
        return False
    k = kind(v)
    if name == "PROPERTY VALUE":
        return is_property_value(v, k)
    if name == "LIST":
        return k == "LIST" and (t.inner is None or all(conforms(x, t.inner) for x in v))  # type: ignore[attr-defined]
    return k == name


def is_property_value(v: object, k: str | None = None) -> bool:
    """Can `v` be stored as a property: a scalar of a property type, or a list of non-null
    values of one such type."""
    k = k or kind(v)
    if k in _PROPERTY_SCALARS:
        return True
    if k != "LIST":
        return False
    kinds = {kind(x) if x is not None else None for x in v}  # type: ignore[attr-defined]
    return len(kinds) <= 1 and not (kinds - _PROPERTY_SCALARS)


def value_type(v: object) -> str:
    """Neo4j's `valueType()` text: the most precise type of the value (`INTEGER NOT NULL`,
    `LIST<STRING NOT NULL> NOT NULL`, `NULL`)."""
    if v is None:
        return "NULL"
    k = kind(v)
    if k == "LIST":
        return f"LIST<{_element_type(v)}> NOT NULL"  # type: ignore[arg-type]
    return k + " NOT NULL"


def _element_type(items: list) -> str:
    if not items:
        return "NOTHING"
    has_null = any(x is None for x in items)
    texts: list[str] = []
    for x in items:
        if x is not None:
            text = value_type(x)
            if text not in texts:
                texts.append(text)
    if not texts:
        return "NULL"
    texts.sort(key=lambda s: ORDER.index(s.split("<")[0].removesuffix(" NOT NULL"))
               if s.split("<")[0].removesuffix(" NOT NULL") in ORDER else len(ORDER))
    if has_null:
        texts = [s.removesuffix(" NOT NULL") for s in texts]
    return " | ".join(texts)
