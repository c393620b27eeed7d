"""Rule `count_trails`: `MATCH (a ...)-[:T*lo..hi]->(b:L) [WHERE tests on b] RETURN count(b)` ->
count the trails from each anchor with a depth-first walk, without building a relationship list,
a path or a row per trail (`exec/count_trails.py` runs it).

It applies when the match is a plain chain (`counted_walk.end_of_walk`) of one variable-length
relationship and every aggregate is `count(*)` or a non-DISTINCT `count(v)` of a variable the
part binds (never null in its rows, so it counts rows too); grouping keys may read the walk's
start (or variables from before the MATCH), never the trail or its end: each anchor's trails
then count for the one group its row falls in.  Off: the generic walk builds each
trail's row and the Aggregate loop counts them.
"""
from __future__ import annotations

from dataclasses import replace

from ..match_spec import Counting
from .counted_walk import end_of_walk, part_variables, reads_variable


def apply(spec, graph):
    end = end_of_walk(spec, keyed=True)
    if end is None:
        return spec
    rels = spec.match.part.element.rels
    if len(rels) != 1 or rels[0].length is None:
        return spec
    bound = part_variables(spec)
    for name, arg, distinct in zip(spec.aggregates, spec.arguments, spec.distinct):
        if name == "count*":
            continue
        if name != "count" or distinct or not reads_variable(arg, bound):
            return spec
    return replace(spec, counting=Counting.TRAILS)
