"""Rule `grouped_count`: `MATCH (n:L) [WHERE tests on n] RETURN n.a, n.b, count(*)` -> count the
anchor's candidate nodes per key values, without building a row per node.

It applies when the aggregation only counts rows (`count(*)`, at least once), groups by
properties of the one node a single-node, non-optional MATCH scans, and no filter is left after
the match (`exec/grouped_count.py` runs it).  Off: the generic Aggregate loop counts the rows.
"""
from __future__ import annotations

from dataclasses import replace

from ...syntax import ast as A
from ..match_spec import CountSpec, Counting


def apply(spec, graph):
    if not isinstance(spec, CountSpec) or spec.counting is not Counting.ROWS:
        return spec
    m = spec.match
    if m is None or spec.optional or spec.filtered or not spec.aggregates:
        return spec
    if m.part.element.rels or m.part.variable or m.anchor_bound:
        return spec
    if any(a != "count*" for a in spec.aggregates):
        return spec
    for e in spec.keys:
        if not (isinstance(e, A.Property) and isinstance(e.subject, A.Variable)
                and e.subject.name == m.anchor_name):
            return spec
    return replace(spec, counting=Counting.CANDIDATES)
