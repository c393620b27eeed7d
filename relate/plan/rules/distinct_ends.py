"""Rule `distinct_ends`: `MATCH (a ...)-[:T]->(:L)-[:T]->(b:L) [WHERE tests on b]
RETURN count(DISTINCT b)` -> carry the set of nodes reached hop by hop, never a row
(`exec/distinct_ends.py` runs it, keeping relationship uniqueness across the chain).

It applies when the match is a plain chain (`counted_walk.end_of_walk`) of fixed-length
relationships and the one aggregate is `count(DISTINCT b)` of the node the walk ends at.  Off:
the generic walk builds every row and the Aggregate loop keeps the distinct ends.
"""
from __future__ import annotations

from dataclasses import replace

from ..match_spec import Counting
from .counted_walk import end_of_walk, reads_variable


def apply(spec, graph):
    end = end_of_walk(spec)
    if end is None or len(spec.aggregates) != 1:
        return spec
    if any(r.length is not None for r in spec.match.part.element.rels):
        return spec
    if spec.aggregates[0] != "count" or not spec.distinct[0] or not reads_variable(spec.arguments[0], {end}):
        return spec
    return replace(spec, counting=Counting.ENDS)
