"""EXPLAIN for Neo4j 5 path patterns: the operator name of a MATCH whose parts have quantified
path patterns (`Repeat`, Neo4j's `Repeat(Trail)`) or a path selector (`StatefulShortestPath` for
the shortest selectors, `SelectPaths` for `ANY k`), and the selector and pre-filter text
that precede a part's walk in the details."""
from __future__ import annotations

from ..syntax import ast as A


def groups_in(part: A.PatternPart) -> bool:
    return any(r.group is not None for r in part.element.rels)


def selective_name(parts, optional: bool) -> str:
    kinds = {m.part.selector.kind for m in parts if m.part.selector is not None}
    if kinds & {"shortest", "groups"}:
        name = "StatefulShortestPath"
    elif "any" in kinds:
        name = "SelectPaths"
    elif any(groups_in(m.part) for m in parts):
        name = "Repeat"
    else:
        name = "Expand"
    return "Optional" + name if optional else name


def selective_text(part: A.PatternPart) -> str:
    out = part.selector.text + " " if part.selector is not None else ""
    if part.where is not None:
        out = out + "pre-filter WHERE ..., "
    return out
