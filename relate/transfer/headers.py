"""A CSV header record -> the columns it declares, in neo4j-admin's header format.

Each field is `<name>:<type>`: `name:ID(group){id-type:long}` (the node id in an id space, kept
as the property `name` when a name is given), `:LABEL`, `:START_ID(group)`, `:END_ID(group)`,
`:TYPE`, `:IGNORE`, or a property `name`, `name:<type>`, `name:<type>[]` (types in
`cells.READERS`; no type is `string`; an unknown one is refused, as neo4j-admin does).  A name
may itself hold `:` when a type follows (the type is after the last one).  ``parse_field` reads one field.
Header options other than `id-type` (a point's default `crs`, a datetime's default `timezone`)
are refused rather than ignored.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .cells import READERS

RELATE_ID = "_relate_id"  # relate's own ids: a node file's ID column and a relationship file's column
ID, LABEL, START_ID, END_ID, TYPE, IGNORE, PROPERTY = ("ID", "LABEL", "START_ID", "END_ID", "TYPE",
                                                      "IGNORE", "PROPERTY")
_SPECIAL = {ID, LABEL, START_ID, END_ID, TYPE, IGNORE}
_SUFFIX = re.compile(r"(?s)^(.*):([A-Za-z_]+(?:\[\])?)(?:\(([^()]*)\))?(\{.*\})?$")
_ID_TYPES = {"string": "string", "integer": "long", "int": "long", "long": "long", "actual": "long"}


class HeaderError(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Column:
    role: str                 # ID, LABEL, START_ID, END_ID, TYPE, IGNORE or PROPERTY
    name: str = ""            # the property key (PROPERTY, or an ID kept as a property)
    type: str = "string"      # the value type (PROPERTY; for ID the type its property is stored as)
    group: str = ""           # the id space (ID, START_ID, END_ID)
    id_type: str | None = None  # an ID's `{id-type: ...}`


def _options(text: str | None) -> dict[str, str]:
    if not text:
        return {}
    out = {}
    for part in text[1:-1].split(","):
        if part.strip():
            k, sep, v = part.partition(":")
            if not sep:
                raise HeaderError(f"header option `{part.strip()}` has no value")
            out[k.strip()] = v.strip().strip("'\"")
    return out


def _is_type(kind: str) -> bool:
    return kind in READERS or (kind.endswith("[]") and kind[:-2] in READERS)


def parse_field(text: str) -> Column:
    m = _SUFFIX.match(text)
    if m is None:
        return Column(PROPERTY, text, "string")
    if m.group(2).upper() not in _SPECIAL and not _is_type(m.group(2)):
        raise HeaderError(f"unknown column type `{m.group(2)}` in `{text}`")
    name, kind, group, opts = m.group(1), m.group(2), m.group(3), _options(m.group(4))
    role = kind.upper()
    if role in _SPECIAL:
        if group is not None and role not in (ID, START_ID, END_ID):
            raise HeaderError(f"`{text}`: only :ID, :START_ID and :END_ID take an id space")
        allowed = {"id-type"} if role == ID else set()
        extra = set(opts) - allowed
        if extra:
            raise HeaderError(f"`{text}`: header option `{sorted(extra)[0]}` is not supported")
        id_type = opts.get("id-type")
        if id_type is not None and id_type.lower() not in _ID_TYPES:
            raise HeaderError(f"`{text}`: unknown id-type `{id_type}`")
        return Column(role, name if role == ID else "", group=group or "",
                      id_type=id_type.lower() if id_type else None)
    if group is not None:
        raise HeaderError(f"`{text}`: a property column takes no id space")
    if opts:
        raise HeaderError(f"`{text}`: header options on a property column (a default crs or time zone) "
                          "are not supported")
    if not name:
        raise HeaderError(f"`{text}`: a property column needs a name")
    return Column(PROPERTY, name, kind)


def id_property_type(column: Column, global_id_type: str) -> str:
    return _ID_TYPES[column.id_type or global_id_type]


def check(columns: list[Column], nodes: bool) -> None:
    """Refuse a header that cannot describe the rows of its kind of file."""
    roles = [c.role for c in columns]
    if nodes:
        for bad in (START_ID, END_ID, TYPE):
            if bad in roles:
                raise HeaderError(f"a node file has no :{bad} column")
        if roles.count(ID) > 1:
            raise HeaderError("more than one :ID column (composite ids are not supported)")
    else:
        for bad in (ID, LABEL):
            if bad in roles:
                raise HeaderError(f"a relationship file has no :{bad} column")
        for need in (START_ID, END_ID):
            if roles.count(need) != 1:
                raise HeaderError(f"a relationship file needs exactly one :{need} column")
        if roles.count(TYPE) > 1:
            raise HeaderError("more than one :TYPE column")
    names = [c.name for c in columns if c.role == PROPERTY or (c.role == ID and c.name)]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise HeaderError(f"the property `{dup}` has two columns")
