"""`CALL { }` subqueries: which outer variables each UNION part of one sees, and the one rewrite
Neo4j's variable scope clause needs.  The checking stage and the planner both read a subquery
through `part_imports`, so they see the same parts with the same imports.

- `CALL (x, y) { }`, `CALL (*) { }`, `CALL () { }`: the scope clause names what every part
  imports (`*`: every visible outer variable, `()`: none).  Those variables stay visible through
  the whole part: a WITH inside cannot drop them (`carry` adds them to each WITH, which is exact:
  they hold one value per run of the subquery, so grouping or DISTINCT on them changes nothing).
- `CALL { }` without a scope clause (deprecated in Neo4j 5, still accepted): a part imports the
  outer variables its first clause, an importing `WITH x, y` (or `WITH *`), names; an importing
  WITH is a plain projection of them, so later clauses may drop them.  A part that does not start
  with one imports nothing.
"""
from __future__ import annotations

from dataclasses import replace

from ..syntax import ast as A
from .astwalk import variables_in


def part_imports(call: A.SubqueryCall, outer: list[str]) -> list[tuple[A.SingleQuery, tuple[str, ...]]]:
    """(part, the outer names it imports) for each UNION part of `call`; `outer` is the visible
    outer names in column order (`projection.visible`)."""
    out = []
    if call.scope is not None:
        names = tuple(outer) if call.scope_all else tuple(dict.fromkeys(v.name for v in call.scope))
        for part in call.query.parts:
            out.append((carry(part, names), names))
    else:
        for part in call.query.parts:
            out.append((part, importing_with_names(part, outer)))
    return out


def importing_with(part: A.SingleQuery, outer) -> A.With | None:
    """The part's importing WITH: a first clause WITH that is `*` or reads an outer variable."""
    first = part.clauses[0] if part.clauses else None
    if not isinstance(first, A.With):
        return None
    p = first.projection
    if p.star and not p.items:
        return first
    for it in p.items:
        if any(v.name in outer for v in variables_in(it.expr)):
            return first
    return None


def importing_with_names(part: A.SingleQuery, outer) -> tuple[str, ...]:
    w = importing_with(part, outer)
    if w is None:
        return ()
    if w.projection.star:
        return tuple(outer)
    names: list[str] = []
    for it in w.projection.items:
        for v in variables_in(it.expr):
            if v.name in outer and v.name not in names:
                names.append(v.name)
    return tuple(names)


def carry(part: A.SingleQuery, names: tuple[str, ...]) -> A.SingleQuery:
    """`part` with the scope clause's `names` added to each of its WITH clauses that would drop
    them (a WITH * keeps them already)."""
    if not names:
        return part
    clauses = []
    changed = False
    for c in part.clauses:
        if isinstance(c, A.With) and not c.projection.star:
            have = {it.alias if it.alias is not None else it.text for it in c.projection.items}
            extra = tuple(A.ProjectionItem(A.Variable(n, c.pos), n, n, c.pos) for n in names if n not in have)
            if extra:
                c = replace(c, projection=replace(c.projection, items=c.projection.items + extra))
                changed = True
        clauses.append(c)
    return A.SingleQuery(tuple(clauses)) if changed else part


def returned_columns(part: A.SingleQuery) -> bool:
    """Whether the part ends with RETURN (a returning subquery) rather than being a unit one."""
    return bool(part.clauses) and isinstance(part.clauses[-1], A.Return)
