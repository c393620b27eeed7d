"""The search procedures a statement can `CALL` (registered on every database):

    CALL db.createFulltextIndex(label, property [, options]) YIELD name, label, property, analyzer
    CALL db.fulltextSearch(label, property, query [, k [, options]]) YIELD node, nodeId, score, hit
    CALL db.vectorSearch(label, property, vectorOrText [, k [, options]]) YIELD node, nodeId, score

`hit` is the hit map of the tool answer (matches, snippets, ... as asked); a vector search given
a string embeds it (queryText), given a list searches with it (vector).  Both searches run under
the statement's search scope (`scope.py`: the caller's access hook, clock and history limit),
which `Database.run` hands over on `ExecContext.search`.
"""
from __future__ import annotations

from ..procedures import Procedure, parse_signature

# each procedure imports the search engine when it first runs: a database that never searches
# (most statements, every `relate "..."` start-up) never loads it


def _create(args, ctx):
    from .declare import create_fulltext_index
    from .state import declared_analyzer
    label, prop, options = args
    before = len(ctx.graph.indexes)
    d = create_fulltext_index(ctx.graph, label, prop, options)
    if len(ctx.graph.indexes) > before:
        ctx.stats.indexes_added += 1  # as CREATE FULLTEXT INDEX counts it; declaring again adds none
    return [(d.name, label, prop, declared_analyzer(d))]


def _fulltext(args, ctx):
    from .fulltext import searched
    from .scope import of_context
    label, prop, query, k, options = args
    out, graph = searched(ctx.graph, label, prop, query, 10 if k is None else k, options, of_context(ctx))
    nodes = graph.nodes  # a hit of a search at a past time is the node as it was then
    return [(nodes[h["node_id"]], h["node_id"], h["score"], h) for h in out["hits"]]


def _vector(args, ctx):
    from .scope import of_context
    from .vectors import vector_search
    label, prop, query, k, options = args
    scope = of_context(ctx)
    if isinstance(query, str):
        out = vector_search(ctx.graph, label, prop, query_text=query, k=10 if k is None else k, options=options,
                            scope=scope)
    else:
        out = vector_search(ctx.graph, label, prop, vector=query, k=10 if k is None else k, options=options,
                            scope=scope)
    nodes = ctx.graph.nodes
    return [(nodes[h["node_id"]], h["node_id"], h["score"]) for h in out["hits"]]


def procedures() -> list[Procedure]:
    return [
        Procedure(parse_signature(
            "db.createFulltextIndex(label :: STRING?, property :: STRING?, options = null :: MAP?) :: "
            "(name :: STRING?, label :: STRING?, property :: STRING?, analyzer :: STRING?)"), _create, writes=True),
        Procedure(parse_signature(
            "db.fulltextSearch(label :: STRING?, property :: STRING?, query :: STRING?, k = null :: INTEGER?, "
            "options = null :: MAP?) :: (node :: NODE?, nodeId :: INTEGER?, score :: FLOAT?, hit :: MAP?)"),
            _fulltext),
        Procedure(parse_signature(
            "db.vectorSearch(label :: STRING?, property :: STRING?, query :: ANY?, k = null :: INTEGER?, "
            "options = null :: MAP?) :: (node :: NODE?, nodeId :: INTEGER?, score :: FLOAT?)"), _vector),
    ]
