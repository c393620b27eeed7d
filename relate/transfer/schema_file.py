"""A graph's indexes and constraints <-> a schema file of Neo4j 5 DDL, one statement a line.

`schema_lines(graph)` writes the `CREATE CONSTRAINT` and `CREATE ... INDEX` statements (the text
SHOW's `createStatement` gives; an index a constraint owns is left out, the constraint makes it).
The Cypher script puts them first; the CSV export writes them beside the files as
`schema.cypher`, which `relate import --schema` applies (and neo4j-admin's `--schema`, or
cypher-shell after the import).  `statements(text)` reads such a file back: a statement ends
with a `;` at the end of a line; `//` comment lines and blank lines are skipped.
"""
from __future__ import annotations

from ..storage.schema_show import constraint_statement, index_statement


def schema_lines(graph) -> list[str]:
    out = [constraint_statement(c) + ";" for c in graph.constraints.values()]
    out += [index_statement(d) + ";" for d in graph.indexes.values() if d.owner is None]
    return out


def statements(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not buf and (not s or s.startswith("//")):
            continue
        if not buf:
            start = number
        buf.append(line)
        if s.endswith(";"):
            out.append((start, "\n".join(buf).strip()[:-1]))
            buf = []
    if buf and "\n".join(buf).strip():
        out.append((start, "\n".join(buf).strip()))
    return out
