"""The 1.4.2.5 label limit: a statement's CREATE and MERGE clauses -> the labels they name that
the graph does not hold yet; `cypher_query` refuses a statement naming more than `MAX_NEW_LABELS`
of them (-32602 TOO_MANY_NEW_LABELS) before it runs, so a runaway generator of label names
cannot flood the schema.  Labels set later with `SET n:Label` are not counted (the line names
CREATE and MERGE only), nor dynamic labels (`:$(expr)`), whose names are known only as it runs.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from ..syntax.ast import Create, Merge, NodePattern

MAX_NEW_LABELS = 256
SUBCODE = "TOO_MANY_NEW_LABELS"


def _walk(node, out: set[str], inside: bool) -> None:
    if isinstance(node, tuple):
        for item in node:
            _walk(item, out, inside)
        return
    if not is_dataclass(node):
        return
    inside = inside or isinstance(node, (Create, Merge))
    if inside and isinstance(node, NodePattern):
        out.update(node.labels)
    for f in fields(node):
        _walk(getattr(node, f.name), out, inside)


def new_labels(statement, known) -> set[str]:
    """The labels the CREATE/MERGE clauses of `statement` name that are not in `known`."""
    named: set[str] = set()
    _walk(statement, named, False)
    return {label for label in named if not known.get(label)}
