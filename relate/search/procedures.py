"""The search procedures a statement can `CALL` (registered on every database):

    CALL db.createFulltextIndex(label, property [, options]) YIELD name, label, property, analyzer
    CALL db.fulltextSearch(label, property, query [, k [, options]]) YIELD node, nodeId, score, hit
    CALL db.vectorSearch(label, property, vectorOrText [, k [, options]]) YIELD node, nodeId, score

`hit` is the hit map of the tool answer (matches, snippets, ... as asked); a vector search given
a string embeds it (queryText), given a list searches with it (vector).
"""
from __future__ import annotations

from ..procedures import Procedure, parse_signature
from .declare import create_fulltext_index
from .fulltext import fulltext_search
from .state import declared_analyzer
from .vectors import vector_search


def _create(args, ctx):
    label, prop, options = args
    d = create_fulltext_index(ctx.graph, label, prop, options)
    return [(d.name, label, prop, declared_analyzer(d))]


def _fulltext(args, ctx):
    label, prop, query, k, options = args
    out = fulltext_search(ctx.graph, label, prop, query, 10 if k is None else k, options)
    nodes = ctx.graph.nodes
    return [(nodes[h["node_id"]], h["node_id"], h["score"], h) for h in out["hits"]]


def _vector(args, ctx):
    label, prop, query, k, options = args
    if isinstance(query, str):
        out = vector_search(ctx.graph, label, prop, query_text=query, k=10 if k is None else k, options=options)
    else:
        out = vector_search(ctx.graph, label, prop, vector=query, k=10 if k is None else k, options=options)
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
