"""shortestPath / allShortestPaths as the matcher walks them: one relationship, from length 0 or 1."""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A


def shape(part: A.PatternPart) -> None:
    el = part.element
    if len(el.rels) != 1:
        raise E.Syntax.UnsupportedClause(f"{part.shortest}() needs a pattern with exactly one relationship")
    rel = el.rels[0]
    lo = 1 if rel.length is None or rel.length[0] is None else rel.length[0]
    if lo > 1:
        raise E.Syntax.UnsupportedClause(f"{part.shortest}() supports a minimal length of 0 or 1 only")
