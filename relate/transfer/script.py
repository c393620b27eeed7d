"""A graph -> a Cypher script that Neo4j 5 (`cypher-shell -f FILE`) and relate (`relate --database STORE -f
FILE`) both run as it is, rebuilding the same graph.

Order: the schema's constraints and indexes first (Neo4j 5 DDL), then a uniqueness constraint on
a temporary label `_RelateImport` (so relationships find their end nodes through an index), the
nodes in batches (`UNWIND [{...}, ...] AS row CREATE (n:_RelateImport:Label) SET n = row`, one
statement per batch and label set), the relationships in batches per type (both ends matched by
`_relate_id`), then the temporary label removed (`CALL { ... } IN TRANSACTIONS`) and its
constraint dropped.  Each statement is its own transaction (cypher-shell's auto-commit, relate's
`-f`), so no `:begin`/`:commit` is needed.

Ids: every node and relationship keeps its relate id as the property `_relate_id` (Neo4j gives
its own ids); a property already named so is refused, as is a value Cypher cannot write
(`cypher_values.py`): the error names the entity and the key.
"""
from __future__ import annotations

from typing import TextIO

from ..errors import E
from .cells import Unrepresentable
from .cypher_values import name, props
from .headers import RELATE_ID
from .schema_file import schema_lines

TEMP_LABEL = "_RelateImport"
TEMP_CONSTRAINT = "_relate_import_id"
BATCH = 1000


def _row(kind: str, entity, extra: list[str] | None = None) -> str:
    if RELATE_ID in entity.props:
        raise E.Transfer.UnsupportedValue(f"{kind} {entity.id}: the key `{RELATE_ID}` is the property the "
                                          "export keeps ids in; rename it before exporting")
    try:
        body = props(entity.props.items(), (RELATE_ID, entity.id))
    except Unrepresentable as e:
        key = _culprit(entity.props)
        raise E.Transfer.UnsupportedValue(f"the Cypher script cannot carry the {kind} {entity.id}'s "
                                          f"property `{key}`: {e}") from None
    if extra:
        return "{" + ", ".join(extra) + ", p: " + body + "}"
    return body


def _culprit(values: dict) -> str:
    from .cypher_values import value
    for k, v in values.items():
        try:
            value(v)
            name(k)
        except Unrepresentable:
            return k
    return "?"


def _label_text(labels) -> str:
    try:
        return "".join(":" + name(lb) for lb in labels)
    except Unrepresentable as e:
        raise E.Transfer.UnsupportedValue(f"the Cypher script cannot carry the label {sorted(labels)!r}: {e}") from None


def write_script(graph, out: TextIO, batch: int = BATCH) -> tuple[int, int]:
    """Write the script for `graph` to `out`; returns (nodes, relationships) written."""
    nodes = list(graph.nodes.values())
    rels = list(graph.rels.values())
    indexes = len([d for d in graph.indexes.values() if d.owner is None])
    out.write(f"// relate export: {len(nodes)} nodes, {len(rels)} relationships, {indexes} "
              f"indexes, {len(graph.constraints)} constraints.\n"
              f"// Run with `cypher-shell -f FILE` (Neo4j 5) or `relate --database STORE -f FILE`.  Every node and\n"
              f"// relationship keeps its relate id as the property {RELATE_ID}.\n")
    for line in schema_lines(graph):
        out.write(line + "\n")
    temp = name(TEMP_LABEL)
    key = name(RELATE_ID)
    out.write(f"CREATE CONSTRAINT {name(TEMP_CONSTRAINT)} FOR (n:{temp}) REQUIRE (n.{key}) IS UNIQUE;\n")
    groups: dict[tuple, list] = {}
    for n in nodes:
        groups.setdefault(tuple(sorted(n.labels)), []).append(n)
    # groups in the order their first node comes, so small graphs read in id order
    for labels, members in groups.items():
        head = f"CREATE (n:{temp}{_label_text(labels)}) SET n = row;\n"
        for i in range(0, len(members), batch):
            rows = ",\n  ".join(_row("node", n) for n in members[i:i + batch])
            out.write(f"UNWIND [\n  {rows}\n] AS row\n{head}")
    by_type: dict[str, list] = {}
    for r in rels:
        by_type.setdefault(r.type, []).append(r)
    for type_, members in by_type.items():
        try:
            tname = name(type_)
        except Unrepresentable as e:
            raise E.Transfer.UnsupportedValue(f"the Cypher script cannot carry the type {type_!r}: {e}") from None
        head = (f"MATCH (a:{temp} {{{key}: row.s}})\nMATCH (b:{temp} {{{key}: row.e}})\n"
                f"CREATE (a)-[r:{tname}]->(b) SET r = row.p;\n")
        for i in range(0, len(members), batch):
            rows = ",\n  ".join(_row("relationship", r, [f"s: {r.start.id}", f"e: {r.end.id}"])
                                for r in members[i:i + batch])
            out.write(f"UNWIND [\n  {rows}\n] AS row\n{head}")
    out.write(f"MATCH (n:{temp}) CALL {{ WITH n REMOVE n:{temp} }} IN TRANSACTIONS OF 10000 ROWS;\n")
    out.write(f"DROP CONSTRAINT {name(TEMP_CONSTRAINT)};\n")
    return len(nodes), len(rels)
