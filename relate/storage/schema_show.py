"""What `SHOW INDEXES` and `SHOW CONSTRAINTS` list: the columns (Neo4j 5's, in its order; the
default ones first) and a graph's rows, sorted by name.

The statement `SHOW ... INDEXES | CONSTRAINTS` is a call of a listing procedure named below
(`procedures.py` registers them; the transform builds the call).  The procedure takes one
argument, the kind filter: an index type (`RANGE`, `TEXT`, ...; empty: all) or, for constraints,
`<entity>|<kind>` (entity `NODE`, `RELATIONSHIP` or empty; kind `UNIQUENESS`, `EXISTENCE`, `KEY`,
`PROPERTY_TYPE` or empty).

relate keeps no LOOKUP indexes (label and relationship type lookups are built in), so none is
listed.  An `id` is the object's place among the schema objects in creation order; `state` is
always ONLINE; `lastRead` and `trackedSince` are null and `readCount` 0 (reads are not counted).
"""
from __future__ import annotations

from .schema_defs import NODE, ConstraintDef, ConstraintKind, IndexDef

SHOW_INDEXES = "SHOW INDEXES"          # the listing procedures' names (a space: no CALL reaches them
SHOW_CONSTRAINTS = "SHOW CONSTRAINTS"  # without backquotes)

INDEX_COLUMNS = ("id", "name", "state", "populationPercent", "type", "entityType", "labelsOrTypes", "properties",
                 "indexProvider", "owningConstraint", "lastRead", "readCount", "trackedSince", "options",
                 "failureMessage", "createStatement")
INDEX_DEFAULT = INDEX_COLUMNS[:12]
INDEX_TYPES = ("INTEGER", "STRING", "STRING", "FLOAT", "STRING", "STRING", "LIST", "LIST", "STRING", "STRING", "ANY",
               "INTEGER", "ANY", "MAP", "STRING", "STRING")
CONSTRAINT_COLUMNS = ("id", "name", "type", "entityType", "labelsOrTypes", "properties", "ownedIndex", "propertyType",
                      "options", "createStatement")
CONSTRAINT_DEFAULT = CONSTRAINT_COLUMNS[:8]
CONSTRAINT_TYPES = ("INTEGER", "STRING", "STRING", "STRING", "LIST", "LIST", "STRING", "STRING", "MAP", "STRING")

_PROVIDERS = {"RANGE": "range-1.0", "TEXT": "text-2.0", "POINT": "point-1.0", "FULLTEXT": "fulltext-1.0"}


def _q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _pattern(entity: str, var: str, labels) -> str:
    names = "|".join(_q(lb) for lb in labels)
    return f"(n:{names})" if entity == NODE else f"()-[r:{names}]-()"


def index_statement(d: IndexDef) -> str:
    var = "n" if d.entity == NODE else "r"
    props = ", ".join(f"{var}.{_q(k)}" for k in d.keys)
    on = f"EACH [{props}]" if d.type == "FULLTEXT" else f"({props})"
    return f"CREATE {d.type} INDEX {_q(d.name)} FOR {_pattern(d.entity, var, d.labels)} ON {on}"


def constraint_statement(c: ConstraintDef) -> str:
    node = c.entity == NODE
    var = "n" if node else "r"
    props = ", ".join(f"{var}.{_q(k)}" for k in c.keys)
    if c.kind is ConstraintKind.UNIQUE:
        rule = "IS UNIQUE" if node else "IS RELATIONSHIP UNIQUE"
    elif c.kind is ConstraintKind.KEY:
        rule = "IS NODE KEY" if node else "IS RELATIONSHIP KEY"
    elif c.kind is ConstraintKind.NOT_NULL:
        rule = "IS NOT NULL"
    else:
        rule = f"IS :: {c.property_type}"
    return f"CREATE CONSTRAINT {_q(c.name)} FOR {_pattern(c.entity, var, (c.label,))} REQUIRE ({props}) {rule}"


def index_rows(graph, kind: str = "") -> list[tuple]:
    rows = []
    for i, d in enumerate(graph.indexes.values()):
        if kind and d.type != kind:
            continue
        provider = _PROVIDERS.get(d.type, "range-1.0")
        rows.append((i + 1, d.name, "ONLINE", 100.0, d.type, d.entity, list(d.labels), list(d.keys), provider,
                     d.owner, None, 0, None, {"indexConfig": {}, "indexProvider": provider}, "",
                     index_statement(d)))
    rows.sort(key=lambda r: r[1])
    return rows


_KIND_FILTER = {"UNIQUENESS": (ConstraintKind.UNIQUE,), "EXISTENCE": (ConstraintKind.NOT_NULL,),
                "KEY": (ConstraintKind.KEY,), "PROPERTY_TYPE": (ConstraintKind.TYPE,)}


def constraint_rows(graph, flt: str = "") -> list[tuple]:
    entity, _, kind = flt.partition("|")
    kinds = _KIND_FILTER.get(kind)
    base = len(graph.indexes)
    rows = []
    for i, c in enumerate(graph.constraints.values()):
        if (entity and c.entity != entity) or (kinds is not None and c.kind not in kinds):
            continue
        owned = c.name if c.owns_index else None
        options = {"indexConfig": {}, "indexProvider": "range-1.0"} if owned else None
        rows.append((base + i + 1, c.name, c.type_name, c.entity, [c.label], list(c.keys), owned, c.property_type,
                     options, constraint_statement(c)))
    rows.sort(key=lambda r: r[1])
    return rows
