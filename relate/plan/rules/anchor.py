"""Rule `anchor`: the node a pattern part starts from -> the cheapest one to start from.

A node bound before the part comes first (one candidate per row); else the first node an index
(single-key, composite, TEXT or POINT) can answer, else the first end of a relationship a relationship
index can answer, else the first one a simple test or an inline map filters, else the first
labelled one, else the first with a label expression (`:A|B`, `:$(x)`: every node scanned, then
filtered), else the first node.
Off: the part's first node.  Runs before the rules that refine the anchor's access path.
"""
from __future__ import annotations

from dataclasses import replace

from ...semantic.checks.labels import dynamic_exprs
from ...syntax import ast as A
from ..conjuncts import match_conjunct
from ..match_spec import MatchSpec
from . import composite_seek, point_seek, text_seek
from .index_seek import rel_seek_for, where_seek


def apply(spec, graph):
    if not isinstance(spec, MatchSpec):
        return spec
    assert spec.seek is None and not spec.tests, "the anchor rule runs first"
    best = _choose(spec, graph)
    return spec if best == spec.anchor else replace(spec, anchor=best)


def _choose(spec: MatchSpec, graph) -> int:
    names = spec.names
    outer = spec.outer
    for i, nm in enumerate(names):
        if nm in outer:
            return i
    best, best_score = 0, None
    rel_indexed = bool(graph.rel_index_data)
    for i, n in enumerate(spec.part.element.nodes):
        score = 3
        if n.labels:
            has_index = isinstance(n.properties, A.MapLiteral) and any(
                graph.index_for(lb, k) is not None for lb in n.labels for k, _ in n.properties.entries)
            if not has_index:
                has_index = where_seek(spec.where, names[i], n.labels, outer, graph) is not None
            if not has_index and graph.node_entries:
                has_index = (composite_seek.find(spec, i, graph) is not None
                             or text_seek.find(spec, i, graph) is not None
                             or point_seek.find(spec, i, graph) is not None)
            filtered = n.properties is not None or any(
                match_conjunct(c, names[i], outer) is not None for c in spec.where)
            score = 0 if has_index else (1 if filtered else 2)
        elif n.label_expr is not None and all(isinstance(e, (A.Parameter, A.Literal, A.ListLiteral))
                                              for e in dynamic_exprs(n.label_expr)):
            score = 2.5  # (a dynamic label reading the part's own variables waits for them)
        if score and rel_indexed and rel_seek_for(spec, i, graph) is not None:
            score = 0.5
        if best_score is None or score < best_score:
            best, best_score = i, score
    return best
