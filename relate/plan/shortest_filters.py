"""The WHERE conjuncts a shortestPath search applies while it searches.

Neo4j finds the shortest path among those the WHERE accepts.  A conjunct that tests every
relationship of the path on its own, `all(r IN relationships(p) WHERE pred)` or
`none(r IN relationships(p) WHERE pred)` (also over the part's relationship list variable, for
`-[rs*]->`), with `pred` reading nothing of the path but `r`, holds for a path exactly when it
holds for each of its relationships: the search then skips the relationships it rejects, and
the conjunct leaves the filter after the match.  Other conjuncts stay there (they filter the
shortest path found)."""
from __future__ import annotations

from ..semantic.astwalk import variables_in
from ..syntax import ast as A


def search_filters(part: A.PatternPart, where) -> tuple[list[tuple[str, A.Expr, bool]], list]:
    """-> ([(variable, predicate, the value a relationship must give)], the conjuncts left)."""
    rel = part.element.rels[0] if len(part.element.rels) == 1 else None
    if rel is None:
        return [], list(where)
    lists = {part.variable, rel.variable if rel.length is not None else None} - {None}
    path_names = lists | {rel.variable} - {None}
    taken, rest = [], []
    for c in where:
        if (isinstance(c, A.Quantifier) and c.kind in (A.QuantifierKind.ALL, A.QuantifierKind.NONE)
                and c.predicate is not None and _relationships_of(c.source, part.variable, lists)
                and not any(v.name in path_names and v.name != c.variable for v in variables_in(c.predicate))):
            taken.append((c.variable, c.predicate, c.kind is A.QuantifierKind.ALL))
        else:
            rest.append(c)
    return taken, rest


def _relationships_of(source: A.Expr, path: str | None, lists: set) -> bool:
    if isinstance(source, A.Variable):
        return source.name in lists and source.name != path
    return (isinstance(source, A.FunctionCall) and source.name.lower() == "relationships"
            and len(source.args) == 1 and isinstance(source.args[0], A.Variable)
            and path is not None and source.args[0].name == path)
